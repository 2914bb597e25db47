"""TTCore passes: the device, device modules, forward functions."""
