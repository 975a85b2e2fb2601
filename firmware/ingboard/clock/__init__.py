"""The Ing clock: time systems as period lists driven by time passed in, the Ing penalty points,
and the clock's SGF properties."""
