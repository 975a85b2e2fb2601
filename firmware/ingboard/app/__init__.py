"""The running program: the asyncio tasks that feed the tracker from the drivers, the standalone
mode, resuming a game after a power cut, and the CPU accounting."""
