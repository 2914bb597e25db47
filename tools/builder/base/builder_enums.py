"""Enums the builder's multi-device ops take, valued as the attributes they print as."""

from enum import Enum


class MeshShardDirection(Enum):
    FullToShard = "#ttcore.shard_direction<full_to_shard>"
    ShardToFull = "#ttcore.shard_direction<shard_to_full>"


class MeshShardType(Enum):
    Identity = "#ttcore.shard_type<identity>"
    Replicate = "#ttcore.shard_type<replicate>"
    Maximal = "#ttcore.shard_type<maximal>"
    Devices = "#ttcore.shard_type<devices>"


class ReduceType(Enum):
    Sum = "#ttcore.reduce_type<sum>"
    Mean = "#ttcore.reduce_type<mean>"
    Max = "#ttcore.reduce_type<max>"
    Min = "#ttcore.reduce_type<min>"
    Prod = "#ttcore.reduce_type<prod>"
