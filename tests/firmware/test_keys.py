"""Debounced clock and pause keys (drivers/keys.py), with time passed in."""

from app_fakes import VirtualTime
from ingboard.drivers.keys import Keys


class Key:
    """An input pin with a pull-up: reads 1 when released, 0 when pressed."""

    def __init__(self):
        self.level = 1

    def __call__(self):
        return self.level


def _setup():
    pins = [Key(), Key(), Key()]
    return pins, Keys(pins, debounce_ms=20)


def test_press_is_reported_once_after_the_debounce_time():
    pins, keys = _setup()
    pins[0].level = 0
    assert keys.poll(0) == 0
    assert keys.poll(10) == 0
    assert keys.taken() == []
    assert keys.poll(20) == 1
    assert keys.taken() == [0] and keys.taken() == []
    for t in range(25, 500, 5):  # held down: no further presses
        assert keys.poll(t) == 0
    assert keys.is_down(0)


def test_bounces_shorter_than_debounce_are_ignored():
    pins, keys = _setup()
    for t in range(0, 100, 5):
        pins[1].level = (t // 5) % 2  # chatter every 5 ms
        assert keys.poll(t) == 0
    assert keys.taken() == []


def test_release_bounce_does_not_press_again_and_a_new_press_does():
    pins, keys = _setup()
    pins[2].level = 0
    keys.poll(0)
    keys.poll(25)
    assert keys.taken() == [2]
    pins[2].level = 1
    keys.poll(30)
    pins[2].level = 0  # contact bounce on release
    keys.poll(33)
    pins[2].level = 1
    keys.poll(36)
    keys.poll(70)
    assert keys.taken() == [] and not keys.is_down(2)
    pins[2].level = 0
    keys.poll(100)
    assert keys.poll(125) == 1 and keys.taken() == [2]


def test_keys_are_independent():
    pins, keys = _setup()
    pins[0].level = 0
    pins[1].level = 0
    keys.poll(0)
    assert keys.poll(30) == 2
    assert sorted(keys.taken()) == [0, 1]


def test_active_high_keys():
    pins = [Key()]
    pins[0].level = 0
    keys = Keys(pins, debounce_ms=10, active_low=False)
    keys.poll(0)
    assert keys.poll(50) == 0
    pins[0].level = 1
    keys.poll(60)
    assert keys.poll(70) == 1


def test_a_key_held_across_a_reboot_is_no_press_until_released():
    # Issue 19: keys are a trust boundary; a key down when the board starts is not a press.
    pins = [Key(), Key(), Key()]
    pins[0].level = 0
    keys = Keys(pins, debounce_ms=20)
    for t in range(0, 200, 5):
        assert keys.poll(t) == 0
    assert keys.taken() == []
    pins[0].level = 1
    for t in range(200, 260, 5):
        assert keys.poll(t) == 0
    pins[0].level = 0
    assert keys.poll(260) == 0 and keys.poll(280) == 1 and keys.taken() == [0]


class IrqKey(Key):
    """A pin with edge interrupts (as machine.Pin on the board): `set(level, t)` calls the
    handler at each edge, with the fake clock at t."""

    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, clock):
        super().__init__()
        self.clock = clock
        self.handler = None
        self.trigger = 0

    def irq(self, handler, trigger):
        self.handler = handler
        self.trigger = trigger

    def set(self, level, t):
        self.clock.now = t
        if level != self.level:
            self.level = level
            self.handler(self)


def _irq_setup():
    clock = VirtualTime()
    pins = [IrqKey(clock), IrqKey(clock)]
    keys = Keys(pins, debounce_ms=20)
    keys._ticks = clock  # the board's time.ticks_ms, here a fake clock
    return pins, keys


def test_a_press_between_two_polls_is_counted_from_its_edges():
    # The app was busy for 400 ms (a redraw, a journal write): the whole 150 ms press fell
    # between two polls of the keys; it is still one press.
    pins, keys = _irq_setup()
    assert pins[0].trigger == IrqKey.IRQ_FALLING | IrqKey.IRQ_RISING
    keys.poll(0)
    pins[0].set(0, 100)
    pins[0].set(1, 250)
    assert keys.poll(400) == 1
    assert keys.taken() == [0] and keys.taken() == []
    assert keys.poll(420) == 0


def test_a_press_the_polls_saw_is_counted_once_not_again_from_its_edges():
    pins, keys = _irq_setup()
    pins[1].set(0, 5)
    keys.poll(10)
    assert keys.poll(30) == 1
    pins[1].set(1, 150)
    assert keys.poll(160) == 0 and keys.poll(200) == 0
    assert keys.taken() == [1] and keys.taken() == []


def test_a_press_seen_once_by_a_poll_then_released_is_counted_from_its_edges():
    pins, keys = _irq_setup()
    pins[0].set(0, 0)
    keys.poll(5)  # seen down once, not yet for the debounce time
    pins[0].set(1, 150)
    assert keys.poll(300) + keys.poll(310) == 1
    assert keys.taken() == [0] and keys.taken() == []


def test_a_bounce_between_two_polls_is_no_press():
    pins, keys = _irq_setup()
    for t in range(100, 140, 4):
        pins[0].set((t // 4) % 2, t)
    pins[0].set(1, 141)
    assert keys.poll(300) == 0 and keys.taken() == []


def test_an_edge_handler_running_late_does_not_count_a_press_the_polls_saw_again():
    # MicroPython's pin handlers are scheduled (soft IRQ): one may run only after a long native
    # call (the grid scan, a collection), when the polls have already seen the key down and
    # counted the press. Its release must not then count the same press a second time (a
    # phantom press is the other player's clock switched: a pass they never made).
    pins, keys = _irq_setup()
    pin = pins[1]
    pin.level = 0  # the key goes down; its falling-edge handler has not run yet
    keys.poll(10)
    assert keys.poll(40) == 1  # the polls see the press
    pin.clock.now = 45
    pin.handler(pin)  # the falling edge's handler, late
    pin.set(1, 140)  # released: the rising edge
    counted = sum(keys.poll(t) for t in (150, 180, 200, 240))
    assert counted == 0
    assert keys.taken() == [1] and keys.taken() == []


def test_presses_counted_at_one_poll_are_taken_in_the_order_they_were_made():
    # Issue 20 (the twin's long game): the app busy for half a second; White pressed for
    # their move, then Black for the next one. Both are counted at the next poll - White's
    # first, or White's press would be taken as the start of White's next turn (a pass).
    pins, keys = _irq_setup()
    keys.poll(0)
    pins[1].set(0, 100)
    pins[1].set(1, 200)
    pins[0].set(0, 400)
    pins[0].set(1, 500)
    assert keys.poll(600) == 2
    assert keys.taken() == [1, 0]
    assert keys.taken() == [] and keys.poll(610) == 0 and keys.taken() == []
    # The other way round, one of them seen by the polls (held down across a poll).
    pins[0].set(0, 700)
    keys.poll(710)
    pins[1].set(0, 720)
    pins[0].set(1, 800)
    pins[1].set(1, 810)
    assert keys.poll(900) == 2  # Black's press read down since 710, White's from its edges
    assert keys.taken() == [0, 1]


class CountingIrqKey(IrqKey):
    """An IrqKey that counts its reads."""

    def __init__(self, clock):
        super().__init__(clock)
        self.reads = 0

    def __call__(self):
        self.reads += 1
        return self.level


def _reads(pins):
    return sum(p.reads for p in pins)


def test_where_every_key_has_edges_a_poll_with_every_key_at_rest_reads_no_pin():
    # An idle board polls its keys 50 times a second: with every key up and no edge since the
    # last poll that read them, nothing can have been pressed (a key goes down with an edge).
    clock = VirtualTime()
    pins = [CountingIrqKey(clock), CountingIrqKey(clock)]
    keys = Keys(pins, debounce_ms=20)
    keys._ticks = clock
    assert keys.poll(0) == 0  # the first poll reads every key
    before = _reads(pins)
    assert before > 0
    for t in range(20, 400, 20):
        assert keys.poll(t) == 0
    assert _reads(pins) == before
    # A press: its edge makes the next polls read, and it counts as before (debounced).
    pins[1].set(0, 405)
    assert keys.poll(410) == 0
    assert _reads(pins) > before
    assert keys.poll(430) == 1 and keys.taken() == [1]
    # Held down: every poll reads (its release must be seen); released and settled: quiet.
    held = _reads(pins)
    assert keys.poll(450) == 0 and _reads(pins) > held
    pins[1].set(1, 460)
    for t in (470, 490, 510):
        assert keys.poll(t) == 0
    settled = _reads(pins)
    for t in range(530, 700, 20):
        assert keys.poll(t) == 0
    assert _reads(pins) == settled
    assert keys.taken() == []


class PressingKey(CountingIrqKey):
    """A key whose first read presses another key (its edge while the poll reads the pins)."""

    other = None

    def __call__(self):
        level = super().__call__()
        other = self.other
        if other is not None:
            self.other = None
            other.set(0, self.clock.now)
        return level


def test_an_edge_while_the_pins_are_read_makes_the_next_poll_read_again():
    # The edge's handler may run while a poll reads the pins, after the key was read up: the
    # next poll must not take the board for quiet.
    clock = VirtualTime()
    pins = [CountingIrqKey(clock), PressingKey(clock)]
    keys = Keys(pins, debounce_ms=20)
    keys._ticks = clock
    assert keys.poll(0) == 0
    pins[1].set(0, 1)  # a bounce on key 1: its edges make the next poll read the pins
    pins[1].set(1, 2)
    pins[1].other = pins[0]  # and key 0 goes down while that poll reads key 1, after key 0
    assert keys.poll(5) == 0
    assert pins[0].level == 0
    assert keys.poll(10) == 0 and keys.poll(30) == 1 and keys.taken() == [0]


def test_pins_without_edges_are_read_at_every_poll():
    pins = [CountingKey(), CountingKey()]
    keys = Keys(pins, debounce_ms=20)
    keys.poll(0)
    before = _reads(pins)
    keys.poll(20)
    keys.poll(40)
    assert _reads(pins) == before + 2 * len(pins)


class CountingKey(Key):
    def __init__(self):
        super().__init__()
        self.reads = 0

    def __call__(self):
        self.reads += 1
        return self.level
