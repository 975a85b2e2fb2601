"""The buzzer's pattern player (drivers/buzzer.py) against a fake PWM, time passed in."""

from expect import raises
from ingboard.drivers import buzzer
from ingboard.drivers.buzzer import Buzzer


class Pwm:
    def __init__(self):
        self.hz = 0
        self.duty = None
        self.log = []

    def freq(self, hz):
        self.hz = hz

    def duty_u16(self, value):
        self.duty = value
        self.log.append(self.hz if value else 0)


def test_pattern_steps_rests_and_silence_at_the_end():
    pwm = Pwm()
    bz = Buzzer(pwm)
    assert pwm.duty == 0
    bz.play((1000, 100, 0, 50, 2000, 100), 1000)
    assert pwm.hz == 1000 and pwm.duty > 0
    assert bz.update(1099)
    assert pwm.hz == 1000 and pwm.duty > 0
    assert bz.update(1100)
    assert pwm.duty == 0  # the rest
    assert bz.update(1150)
    assert pwm.hz == 2000 and pwm.duty > 0
    assert not bz.update(1250)
    assert pwm.duty == 0


def test_late_update_skips_finished_steps_on_schedule():
    pwm = Pwm()
    bz = Buzzer(pwm)
    bz.play(buzzer.ALERT, 0)  # 120 on, 80 off, 120 on
    assert bz.update(210)  # in the second tone, which started at 200
    assert pwm.hz == 1000 and pwm.duty > 0
    assert not bz.update(320)


def test_stop_and_bad_pattern():
    pwm = Pwm()
    bz = Buzzer(pwm)
    bz.play(buzzer.TIME_OUT, 0)
    bz.stop()
    assert pwm.duty == 0 and not bz.update(10)
    raises(ValueError, bz.play, (1000,), 0)
