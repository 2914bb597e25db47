"""Tensors over a mesh of simulated chips, as tt-metal's `ttnn` spells them: a mapper turns one torch tensor into
one value per chip (`ttnn.from_torch(t, mesh_mapper=ttnn.ShardTensorToMesh(mesh_device, dim=3), device=...)`), a
composer joins the chips' values back into one (`ttnn.to_torch(t, mesh_composer=ttnn.ConcatMeshToTensor(...))`).

A mesh tensor's shape is one chip's, as in tt-metal; the runtime keeps one value per chip and every op runs on
each chip's own value (`ttmlir.runtime.executor`). Its topology (`tensor.tensor_topology()`) says how the values
relate to the whole: per mesh axis, replicated or sharded along a tensor dimension."""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class PlacementReplicate:
    """The same value on every chip along a mesh axis."""


@dataclass(frozen=True)
class PlacementShard:
    """Equal slices of tensor dimension `dim` along a mesh axis, in the axis' order."""
    dim: int


@dataclass(frozen=True)
class TensorTopology:
    """How a mesh tensor's chip values make up the whole: the mesh shape they lie on and one placement per axis."""
    shape: tuple
    placements_: tuple

    def distribution_shape(self) -> tuple:
        return self.shape

    def placements(self) -> list:
        return list(self.placements_)


class MeshMapperConfig:
    """One placement per mesh axis (`[ttnn.PlacementReplicate(), ttnn.PlacementShard(3)]` on a 2-D mesh)."""

    def __init__(self, placements, mesh_shape_override=None):
        self.placements = list(placements)
        self.mesh_shape_override = mesh_shape_override


class MeshComposerConfig:
    """The tensor dimension each mesh axis' values are concatenated along."""

    def __init__(self, dims, mesh_shape_override=None):
        self.dims = [int(d) for d in dims]
        self.mesh_shape_override = mesh_shape_override


def _mesh_shape(mesh_device, override, what: str) -> tuple[int, int]:
    """The (rows, columns) the values are laid out on: the device's mesh, or an override with as many chips."""
    rows, cols = tuple(mesh_device.shape)
    if override is None:
        return rows, cols
    shape = tuple(int(d) for d in override)
    if len(shape) == 1:  # a 1-D override lays every chip along one axis
        shape = (1, shape[0])
    if len(shape) != 2 or shape[0] * shape[1] != rows * cols:
        raise ValueError(f"{what}: mesh shape {list(shape)} does not hold the device's {rows * cols} chips")
    return shape


class TensorToMesh:
    """A mapper: `map(torch_tensor)` gives each chip's value in mesh order (row by row)."""

    def __init__(self, mesh_device, placements, mesh_shape=None, what: str = "mesh_mapper"):
        self.mesh_shape = _mesh_shape(mesh_device, mesh_shape, what)
        if len(placements) == 1 and self.mesh_shape[0] == 1:  # a 1-D placement runs along the chips' row
            placements = [PlacementReplicate(), *placements]
        if len(placements) != 2:
            raise ValueError(f"{what}: {len(placements)} placements for a 2-D mesh")
        for p in placements:
            if not isinstance(p, (PlacementReplicate, PlacementShard)):
                raise TypeError(f"{what}: a placement is ttnn.PlacementReplicate() or ttnn.PlacementShard(dim), "
                                f"got {p!r}")
        self.placements = tuple(placements)
        self.what = what

    def topology(self) -> TensorTopology:
        return TensorTopology(self.mesh_shape, self.placements)

    def map(self, tensor: torch.Tensor) -> list[torch.Tensor]:
        rows = self._split(tensor, self.placements[0], self.mesh_shape[0])
        return [piece for row in rows for piece in self._split(row, self.placements[1], self.mesh_shape[1])]

    def _split(self, tensor: torch.Tensor, placement, count: int) -> list[torch.Tensor]:
        if isinstance(placement, PlacementReplicate):
            return [tensor] * count
        dim = placement.dim
        if not -tensor.dim() <= dim < tensor.dim():
            raise ValueError(f"{self.what}: dim {dim} is out of range for a rank {tensor.dim()} tensor")
        size = tensor.shape[dim]
        # every chip holds a tensor of the same shape: uneven slices would not be one mesh tensor
        if size % count:
            raise ValueError(f"{self.what}: dimension {dim} of size {size} does not split evenly over {count} chips")
        return list(torch.chunk(tensor, count, dim=dim))


class MeshToTensor:
    """A composer: `compose(chip_values)` joins the values (mesh order) along each axis' tensor dimension."""

    def __init__(self, mesh_device, dims, mesh_shape=None, what: str = "mesh_composer"):
        self.mesh_shape = _mesh_shape(mesh_device, mesh_shape, what)
        dims = [int(d) for d in dims]
        if len(dims) == 1 and self.mesh_shape[0] == 1:
            dims = [None, *dims]  # a single row of chips: one concatenation
        if len(dims) != 2:
            raise ValueError(f"{what}: {len(dims)} concatenation dims for a 2-D mesh")
        self.dims = dims

    def compose(self, values: list[torch.Tensor]) -> torch.Tensor:
        rows, cols = self.mesh_shape
        if len(values) != rows * cols:
            raise ValueError(f"mesh_composer: {len(values)} chip values for a {rows}x{cols} mesh")
        joined = [torch.cat(values[r * cols:(r + 1) * cols], dim=self.dims[1]) for r in range(rows)]
        return joined[0] if self.dims[0] is None else torch.cat(joined, dim=self.dims[0])


def ReplicateTensorToMesh(mesh_device) -> TensorToMesh:
    return TensorToMesh(mesh_device, [PlacementReplicate(), PlacementReplicate()], what="ReplicateTensorToMesh")


def ShardTensorToMesh(mesh_device, dim: int) -> TensorToMesh:
    """Slices of `dim`, one per chip over the whole mesh (taken as one row)."""
    return TensorToMesh(mesh_device, [PlacementShard(int(dim))], mesh_shape=(mesh_device.get_num_devices(),),
                        what="ShardTensorToMesh")


def ShardTensor2dMesh(mesh_device, mesh_shape, dims) -> TensorToMesh:
    """Slices of dims[0] down the mesh's rows and of dims[1] along its columns (None: replicated on that axis)."""
    placements = [PlacementReplicate() if d is None else PlacementShard(int(d)) for d in dims]
    return TensorToMesh(mesh_device, placements, mesh_shape=mesh_shape, what="ShardTensor2dMesh")


def ConcatMeshToTensor(mesh_device, dim: int) -> MeshToTensor:
    return MeshToTensor(mesh_device, [dim], mesh_shape=(mesh_device.get_num_devices(),), what="ConcatMeshToTensor")


def ConcatMesh2dToTensor(mesh_device, mesh_shape, dims) -> MeshToTensor:
    return MeshToTensor(mesh_device, dims, mesh_shape=mesh_shape, what="ConcatMesh2dToTensor")


def replicate_tensor_to_mesh_mapper(mesh_device) -> TensorToMesh:
    return ReplicateTensorToMesh(mesh_device)


def shard_tensor_to_mesh_mapper(mesh_device, dim: int) -> TensorToMesh:
    return ShardTensorToMesh(mesh_device, dim)


def concat_mesh_to_tensor_composer(mesh_device, dim: int) -> MeshToTensor:
    return ConcatMeshToTensor(mesh_device, dim)


def create_mesh_mapper(mesh_device, config: MeshMapperConfig) -> TensorToMesh:
    return TensorToMesh(mesh_device, config.placements, mesh_shape=config.mesh_shape_override,
                        what="create_mesh_mapper")


def create_mesh_composer(mesh_device, config: MeshComposerConfig) -> MeshToTensor:
    return MeshToTensor(mesh_device, config.dims, mesh_shape=config.mesh_shape_override, what="create_mesh_composer")


def replicated(mesh_shape) -> TensorTopology:
    """The topology of a tensor made on a mesh without a mapper: the same value on every chip."""
    return TensorTopology(tuple(mesh_shape), (PlacementReplicate(), PlacementReplicate()))


FUNCTIONS = {f.__name__: f for f in (ReplicateTensorToMesh, ShardTensorToMesh, ShardTensor2dMesh, ConcatMeshToTensor,
                                     ConcatMesh2dToTensor, replicate_tensor_to_mesh_mapper,
                                     shard_tensor_to_mesh_mapper, concat_mesh_to_tensor_composer, create_mesh_mapper,
                                     create_mesh_composer)}
