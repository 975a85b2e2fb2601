"""The relay's page events (board views, clocks, alerts), made under the relay's lock and
delivered after it is released, in the order they were made.

Why: the director's desk (director.py) takes its own lock and then asks the relay for its
views, so an event delivered under the relay's lock met a round's import holding the desk's
lock, and the relay, the import and the MQTT client all stopped (CI, 2026-11-29;
tests/host/test_relay_locks.py). The lock order is now: paho's callback, delivery, the desk,
the relay, the archive; nothing takes them the other way round.
"""

import sys
import threading
import traceback


class PageEvents:
    def __init__(self, relay_lock, listener):
        self.relay_lock = relay_lock  # the relay's RLock: no delivery while this thread holds it
        self.listener = listener  # listener(kind, data), looked up at each delivery
        self._outbox = []
        self._outbox_lock = threading.Lock()  # held only to append or take the list
        self._delivering = threading.Lock()  # one thread delivers at a time: events keep order
        self._in_delivery = threading.local()  # a listener's own handle()/tick(): see deliver

    def add(self, kind, data):
        """An event to deliver once the relay's lock is released."""
        with self._outbox_lock:
            self._outbox.append((kind, data))

    def deliver(self):
        """The queued events to the listener, outside the relay's lock and in order. A call
        made while this thread still holds the lock (a nested one), or from a listener (which
        calls the relay's handle() or tick() itself), leaves them to the delivery already
        running in this thread; a listener that raises loses only its own event."""
        if self.relay_lock._is_owned() or getattr(self._in_delivery, "on", False):
            return
        with self._delivering:
            self._in_delivery.on = True
            try:
                while True:
                    with self._outbox_lock:
                        if not self._outbox:
                            return
                        batch, self._outbox = self._outbox, []
                    for kind, data in batch:
                        try:
                            self.listener(kind, data)
                        except Exception:  # noqa: BLE001 (a page never stops the archive)
                            print("relay: a %s event's listener failed:" % kind, file=sys.stderr)
                            traceback.print_exc()
            finally:
                self._in_delivery.on = False
