"""The tracker: snapshots of the board, clock presses and bowl readings into moves, removals,
passes and alerts, with the rules core deciding legality. It keeps the game (what the rules say)
apart from the board (what the sensors see) and reads the Ing fill-in off the board at the end."""
