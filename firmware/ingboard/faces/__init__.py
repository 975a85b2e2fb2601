"""What the clock's two displays show: the clock face, the board's count and health maps and the
menu screens, drawn on any framebuf-like object passed in."""
