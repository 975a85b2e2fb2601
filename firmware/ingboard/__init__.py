"""ingboard firmware: the instrumented go set (board, bowls, Ing clock).

`ingboard.core` is pure logic (no hardware); `ingboard.drivers` is the only place that touches
the microcontroller's pins.
"""

VERSION = "0.1.0"
