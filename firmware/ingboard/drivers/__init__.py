"""Hardware drivers: the only modules that touch `machine`. Each takes its pins/bus objects in
the constructor; nothing touches hardware at import time."""
