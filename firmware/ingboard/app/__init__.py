"""The running program: the asyncio tasks that feed the tracker from the drivers (the sensors'
inputs), the game's records kept on flash as it goes, the standalone mode, resuming a game after
a power cut, and the CPU accounting."""
