"""`cnlab play`: a person plays a whole game with a bot in a terminal (Duet; Codenames two-player;
Pictures with the pictures described in words). See docs/play.md."""

from experiments.play.command import play_command

__all__ = ["play_command"]
