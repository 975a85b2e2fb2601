"""Pure, deterministic logic: rules core, tracker, clock, bowls, records. No hardware imports."""
