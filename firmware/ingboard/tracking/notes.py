"""The tracker's comments for the game record: alerts, retractions, accepted shifts, each at
the ply it was made; records/sgf_record.py writes them as the SGF's comments (C) and the
journal keeps them across a power cut."""


class Notes:
    """Comments for the SGF, each kept with the number of plies when it was made (0: before
    the first move). The tracker adds alerts and retractions; the app or other modules add
    their own (an accepted shift of the board, ...)."""

    def __init__(self):
        self.by_ply = {}
        self.total = 0  # comments added so far (the journal follows this count)

    def add(self, plies, text):
        self.by_ply.setdefault(plies, []).append(text)
        self.total += 1

    def count(self):
        return sum(len(v) for v in self.by_ply.values())
