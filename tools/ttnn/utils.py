"""What generated Python imports as `utils`: the device it runs on and list building.

`DeviceGetter.get_device(mesh_shape)` opens one simulated device the first time and returns it after; a runner
(`ttrt emitpy`) hands each run its own device with `DeviceGetter.use(device)`."""

from __future__ import annotations


class DeviceGetter:
    _device = None  # the generated program's device: the one process-wide instance its code asks for

    @classmethod
    def get_device(cls, mesh_shape=(1, 1)):
        from ttnn import open_device

        if cls._device is None or not cls._device.is_open:
            cls._device = open_device(mesh_shape=tuple(mesh_shape))
        if tuple(cls._device.shape) != tuple(mesh_shape):
            raise RuntimeError(f"the program runs on a {'x'.join(map(str, mesh_shape))} mesh; the open device is "
                               f"{'x'.join(map(str, cls._device.shape))}")
        return cls._device

    @classmethod
    def use(cls, device) -> None:
        cls._device = device


def create_list(*values) -> list:
    return list(values)
