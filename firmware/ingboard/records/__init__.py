"""What a game leaves behind: the crash-safe journal (its format on flash, the writer and the
replay), the session log (writer, reader, replay into a tracker), the SGF record and the store
of finished games on the board's file system."""
