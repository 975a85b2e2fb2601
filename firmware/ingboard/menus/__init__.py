"""The set-up menus and the remembered settings that a player changes with the clock's buttons,
without a host."""
