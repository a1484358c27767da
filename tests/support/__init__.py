"""What the tests share: reference referees, SSH clients and screens, helpers for the interface."""
