"""Who simulates which chips: tt-metal's mesh graph descriptor (textproto) and tt-run's rank bindings (YAML).

A mesh graph descriptor names each mesh's device topology (rows x columns of chips) and host topology (rows x
columns of hosts); host rank h of a mesh owns the block of chips at host coordinates divmod(h, host columns),
each host holding (device rows / host rows) x (device columns / host columns) chips. A rank binding gives
each MPI rank its mesh id and host rank, and may narrow the devices it sees with TT_VISIBLE_DEVICES (host-local
device numbers, row-major within the host's block).

Nothing here imports torch or MPI: `tt-run` validates a launch with it before starting any process, and every
rank reads the same files to find its chips. Errors are `TopologyError`s that start with `file:line:`.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path


# how a rank's failure line starts: tt-run shows the first such line and drops what repeats it
FAILURE_MARK = "tt-run: error: "


def report_failure(where: str, message: str) -> None:
    """A rank's failure line on stderr, in one write: with unbuffered streams `print` writes the newline apart, and
    an MPI abort notice sent in between would join the line."""
    sys.stderr.write(f"{FAILURE_MARK}{where}: {message}\n")
    sys.stderr.flush()


class TopologyError(ValueError):
    """A bad descriptor or binding, located in its file."""


# ---------------------------------------------------------------------------------------------------------
# textproto: the subset mesh graph descriptors use (messages, scalars, [lists], # comments, optional ':').

_TOKEN = re.compile(r'\s+|#[^\n]*|(?P<str>"(?:[^"\\]|\\.)*")|(?P<num>-?\d+(?:\.\d+)?)|(?P<id>[A-Za-z_]\w*)'
                    r'|(?P<punct>[{}\[\]:,<>;])')


@dataclass
class Message:
    """A textproto message: each field's values in order (a repeated field has several), with their lines."""

    fields: dict[str, list] = field(default_factory=dict)
    lines: dict[str, list[int]] = field(default_factory=dict)
    line: int = 0

    def all(self, name: str) -> list:
        return self.fields.get(name, [])

    def one(self, name: str, default=None):
        values = self.fields.get(name)
        return values[-1] if values else default


def _tokens(text: str, path: str):
    pos, line = 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise TopologyError(f"{path}:{line}: unexpected character {text[pos]!r}")
        if m.lastgroup:
            yield m.lastgroup, m.group(m.lastgroup), line
        line += m.group(0).count("\n")
        pos = m.end()
    yield "end", "", line


def parse_textproto(text: str, path: str) -> Message:
    tokens = list(_tokens(text, path))
    pos = 0

    def peek():
        return tokens[pos]

    def take(kind=None, value=None):
        nonlocal pos
        tok = tokens[pos]
        if (kind and tok[0] != kind) or (value and tok[1] != value):
            want = repr(value) if value else {"id": "a field name"}.get(kind, kind)
            got = "the end of the file" if tok[0] == "end" else repr(tok[1])
            raise TopologyError(f"{path}:{tok[2]}: expected {want}, found {got}")
        pos += 1
        return tok

    def scalar():
        kind, value, line = take()
        if kind == "str":
            return value[1:-1].encode().decode("unicode_escape")
        if kind == "num":
            return float(value) if "." in value else int(value)
        if kind == "id":
            return {"true": True, "false": False}.get(value, value)
        raise TopologyError(f"{path}:{line}: expected a value, found {value!r}")

    def message(close: str | None, line: int) -> Message:
        msg = Message(line=line)
        while True:
            kind, value, at = peek()
            if close is None and kind == "end":
                return msg
            if kind == "punct" and value == close:
                take()
                return msg
            if kind == "punct" and value in ",;":  # optional separators between fields
                take()
                continue
            name = take("id")[1]
            if peek()[1] == ":":
                take()
            kind, value, _ = peek()
            if value in ("{", "<"):
                take()
                values = [message("}" if value == "{" else ">", at)]
            elif value == "[":
                take()
                values = []
                while peek()[1] != "]":
                    values.append(scalar())
                    if peek()[1] == ",":
                        take()
                take(value="]")
            else:
                values = [scalar()]
            msg.fields.setdefault(name, []).extend(values)
            msg.lines.setdefault(name, []).extend([at] * len(values))

    return message(None, 1)


# ---------------------------------------------------------------------------------------------------------
# mesh graph descriptors

ARCHS = {"WORMHOLE_B0": "wormhole_b0", "BLACKHOLE": "blackhole"}


@dataclass(frozen=True)
class Mesh:
    mesh_id: int
    name: str
    arch: str
    devices: tuple[int, int]  # rows x columns of chips
    hosts: tuple[int, int]    # rows x columns of hosts
    path: str
    line: int

    @property
    def num_hosts(self) -> int:
        return self.hosts[0] * self.hosts[1]

    @property
    def block(self) -> tuple[int, int]:
        return self.devices[0] // self.hosts[0], self.devices[1] // self.hosts[1]

    def host_chips(self, host_rank: int) -> list[int]:
        """The global (row-major) chip ids host `host_rank` holds, row-major within its block."""
        (rows, cols), (hr, hc) = self.block, divmod(host_rank, self.hosts[1])
        return [(hr * rows + r) * self.devices[1] + hc * cols + c for r in range(rows) for c in range(cols)]

    def describe(self) -> str:
        return (f"mesh {self.mesh_id} ('{self.name}': {self.devices[0]}x{self.devices[1]} devices over "
                f"{self.hosts[0]}x{self.hosts[1]} hosts)")


def _dims(msg: Message | None, what: str, path: str, line: int) -> tuple[int, int]:
    dims = msg.all("dims") if msg is not None else []
    if not dims:
        raise TopologyError(f"{path}:{line}: {what} needs 'dims'")
    if len(dims) > 2 or not all(isinstance(d, int) and d > 0 for d in dims):
        raise TopologyError(f"{path}:{msg.line}: {what} dims {dims} must be one or two positive numbers")
    return (1, dims[0]) if len(dims) == 1 else (dims[0], dims[1])


def load_mesh_graph(path: str | Path) -> dict[int, Mesh]:
    """The meshes a descriptor instantiates, by mesh id. Graphs of several meshes (multi-mesh fabrics) are
    refused: the simulator runs one program over one mesh."""
    path = str(path)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise TopologyError(f"{path}: cannot read the mesh graph descriptor: {exc.strerror or exc}") from None
    root = parse_textproto(text, path)
    descriptors = {}
    for d, line in zip(root.all("mesh_descriptors"), root.lines.get("mesh_descriptors", [])):
        name = d.one("name")
        if not isinstance(name, str):
            raise TopologyError(f"{path}:{line}: a mesh descriptor needs a 'name'")
        arch = d.one("arch")
        if arch not in ARCHS:
            raise TopologyError(f"{path}:{line}: mesh '{name}' has arch {arch!r}; expected one of "
                                f"{', '.join(ARCHS)}")
        devices = _dims(d.one("device_topology"), f"mesh '{name}' device_topology", path, line)
        hosts = _dims(d.one("host_topology"), f"mesh '{name}' host_topology", path, line)
        if devices[0] % hosts[0] or devices[1] % hosts[1]:
            raise TopologyError(f"{path}:{line}: mesh '{name}': {devices[0]}x{devices[1]} devices do not split "
                                f"evenly over {hosts[0]}x{hosts[1]} hosts")
        descriptors[name] = (name, ARCHS[arch], devices, hosts, line)
    if root.all("graph_descriptors"):
        line = root.lines["graph_descriptors"][0]
        raise TopologyError(f"{path}:{line}: graph_descriptors (several meshes joined into one fabric) are not "
                            "supported by the simulator: describe one mesh")
    top = root.one("top_level_instance")
    if top is None:
        raise TopologyError(f"{path}: the descriptor needs a 'top_level_instance'")
    ref = top.one("mesh")
    if ref is None:
        raise TopologyError(f"{path}:{top.line}: top_level_instance must name a mesh")
    name = ref.one("mesh_descriptor")
    if name not in descriptors:
        raise TopologyError(f"{path}:{ref.line}: top_level_instance names mesh descriptor {name!r}, which the file "
                            f"does not define" + (f" (it defines {', '.join(map(repr, descriptors))})"
                                                   if descriptors else ""))
    mesh_id = ref.one("mesh_id", 0)
    name, arch, devices, hosts, line = descriptors[name]
    return {mesh_id: Mesh(mesh_id, name, arch, devices, hosts, path, line)}


# ---------------------------------------------------------------------------------------------------------
# rank bindings

@dataclass
class Binding:
    rank: int
    mesh_id: int
    mesh_host_rank: int
    env_overrides: dict[str, str]
    line: int


@dataclass
class RankBindings:
    path: str
    bindings: list[Binding]
    global_env: dict[str, str]
    mesh_graph_desc_path: str
    meshes: dict[int, Mesh]
    mock_cluster: dict[int, str] = field(default_factory=dict)  # rank -> mock cluster descriptor

    def chips_of(self, binding: Binding) -> list[int]:
        """The global chip ids the rank simulates: its host's block (TT_VISIBLE_DEVICES, checked, names them all)."""
        return self.meshes[binding.mesh_id].host_chips(binding.mesh_host_rank)


def _yaml():
    try:
        import yaml
    except ImportError:
        raise TopologyError("tt-run reads YAML with PyYAML, which is not installed: pip install 'ttmlir[mpi]'") \
            from None
    return yaml


def load_yaml(path: str, what: str):
    """A YAML file whose mappings know their line (`.line`, 1-based), for located errors."""
    yaml = _yaml()

    class Located(dict):
        line = 0

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node):
        out = Located(loader.construct_mapping(node, deep=True))
        out.line = node.start_mark.line + 1
        return out

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise TopologyError(f"{path}: cannot read the {what}: {exc.strerror or exc}") from None
    try:
        return yaml.load(text, Loader=Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else path
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise TopologyError(f"{where}: the {what} is not valid YAML: {problem}") from None


def _resolve(base: str, value: str) -> str:
    p = Path(value).expanduser()
    return str(p if p.is_absolute() else (Path(base).parent / p if (Path(base).parent / p).exists() else p).resolve())


def _int(entry: dict, key: str, path: str, required: bool = True, default: int = 0) -> int:
    value = entry.get(key)
    if value is None and not required:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        got = "missing" if value is None else repr(value)
        raise TopologyError(f"{path}:{getattr(entry, 'line', 0)}: '{key}' must be a number >= 0 ({got})")
    return value


def _env(entry, key: str, path: str) -> dict[str, str]:
    value = entry.get(key) or {}
    if not isinstance(value, dict):
        raise TopologyError(f"{path}:{getattr(entry, 'line', 0)}: '{key}' must be a mapping of names to values")
    return {str(k): str(v) for k, v in value.items()}


def load_rank_bindings(path: str, mock_cluster: str | None = None) -> RankBindings:
    """tt-run's rank bindings, checked against the mesh graph descriptor they name: every host of every mesh is
    bound to exactly one rank, and every device a binding names exists."""
    data = load_yaml(path, "rank bindings")
    if not isinstance(data, dict) or not isinstance(data.get("rank_bindings"), list) or not data["rank_bindings"]:
        raise TopologyError(f"{path}:{getattr(data, 'line', 1)}: expected a mapping with a non-empty "
                            "'rank_bindings' list")
    if not isinstance(data.get("mesh_graph_desc_path"), str):
        raise TopologyError(f"{path}:{data.line}: 'mesh_graph_desc_path' (the mesh graph descriptor) is missing")
    meshes = load_mesh_graph(_resolve(path, data["mesh_graph_desc_path"]))
    bindings = []
    for entry in data["rank_bindings"]:
        if not isinstance(entry, dict):
            raise TopologyError(f"{path}: each rank binding must be a mapping (rank, mesh_id, mesh_host_rank, "
                                "env_overrides)")
        bindings.append(Binding(_int(entry, "rank", path), _int(entry, "mesh_id", path),
                                _int(entry, "mesh_host_rank", path, required=False),
                                _env(entry, "env_overrides", path), entry.line))
    config = RankBindings(path, sorted(bindings, key=lambda b: b.rank), _env(data, "global_env", path),
                          _resolve(path, data["mesh_graph_desc_path"]), meshes)
    check_bindings(config)
    if mock_cluster is not None:
        config.mock_cluster = load_mock_cluster(mock_cluster, [b.rank for b in config.bindings])
    return config


def check_bindings(config: RankBindings) -> None:
    path, seen = config.path, {}
    ranks = [b.rank for b in config.bindings]
    if ranks != list(range(len(ranks))):
        raise TopologyError(f"{path}: ranks must be 0..{len(ranks) - 1}, each once (found {ranks})")
    for b in config.bindings:
        mesh = config.meshes.get(b.mesh_id)
        if mesh is None:
            raise TopologyError(f"{path}:{b.line}: rank {b.rank} is bound to mesh {b.mesh_id}, which "
                                f"{config.mesh_graph_desc_path} does not have (it has mesh "
                                f"{', '.join(map(str, config.meshes))})")
        if b.mesh_host_rank >= mesh.num_hosts:
            raise TopologyError(f"{path}:{b.line}: rank {b.rank} is bound to host rank {b.mesh_host_rank} of "
                                f"{mesh.describe()}, which has host ranks 0..{mesh.num_hosts - 1}")
        if (b.mesh_id, b.mesh_host_rank) in seen:
            raise TopologyError(f"{path}:{b.line}: rank {b.rank} is bound to host rank {b.mesh_host_rank} of mesh "
                                f"{b.mesh_id}, as rank {seen[b.mesh_id, b.mesh_host_rank]} already is")
        seen[b.mesh_id, b.mesh_host_rank] = b.rank
        visible = b.env_overrides.get("TT_VISIBLE_DEVICES")
        if visible is not None:
            held = mesh.block[0] * mesh.block[1]
            try:
                devices = [int(d) for d in visible.split(",")]
            except ValueError:
                raise TopologyError(f"{path}:{b.line}: rank {b.rank}: TT_VISIBLE_DEVICES {visible!r} is not a "
                                    "comma-separated list of device numbers") from None
            bad = [d for d in devices if not 0 <= d < held]
            if bad:
                raise TopologyError(f"{path}:{b.line}: rank {b.rank}: TT_VISIBLE_DEVICES names device {bad[0]}, "
                                    f"but host rank {b.mesh_host_rank} of {mesh.describe()} has devices "
                                    f"0..{held - 1}")
            if sorted(devices) != list(range(held)):
                raise TopologyError(f"{path}:{b.line}: rank {b.rank}: TT_VISIBLE_DEVICES {visible!r} must name each "
                                    f"of its host's {held} devices (0..{held - 1}) once: the simulator runs every "
                                    "chip of the mesh")
    for mesh in config.meshes.values():
        missing = [h for h in range(mesh.num_hosts) if (mesh.mesh_id, h) not in seen]
        if missing:
            raise TopologyError(f"{path}: host rank {missing[0]} of {mesh.describe()} has no rank bound to it: its "
                                f"chips {mesh.host_chips(missing[0])} would not run")


def bindings_from_mesh_graph(mgd_path: str, ranks: int, origin: str) -> RankBindings:
    """One rank per host of the descriptor's single mesh, host rank = MPI rank (tt-run -m)."""
    meshes = load_mesh_graph(mgd_path)
    (mesh,) = meshes.values()
    if ranks != mesh.num_hosts:
        raise TopologyError(f"{origin} gives {ranks} rank(s), but {mesh.describe()} in {mgd_path} needs one per "
                            f"host: {mesh.num_hosts}")
    bindings = [Binding(r, mesh.mesh_id, r, {}, 0) for r in range(ranks)]
    return RankBindings(mgd_path, bindings, {}, str(Path(mgd_path).resolve()), meshes)


def load_mock_cluster(path: str, ranks: list[int] | None = None) -> dict[int, str]:
    """`rank_to_cluster_mock_cluster_desc`: each rank's mock cluster descriptor (a mapping rank -> file, or a
    list of {rank, filename})."""
    data = load_yaml(path, "mock cluster rank binding")
    table = data.get("rank_to_cluster_mock_cluster_desc") if isinstance(data, dict) else None
    if table is None:
        raise TopologyError(f"{path}:{getattr(data, 'line', 1)}: expected 'rank_to_cluster_mock_cluster_desc'")
    entries = table.items() if isinstance(table, dict) else [(e.get("rank"), e.get("filename")) for e in table
                                                               if isinstance(e, dict)]
    out = {}
    for rank, filename in entries:
        if not isinstance(rank, int) or not isinstance(filename, str):
            raise TopologyError(f"{path}:{getattr(table, 'line', 1)}: each entry needs a rank number and a "
                                "descriptor file name")
        resolved = _resolve(path, filename)
        if not Path(resolved).is_file():
            raise TopologyError(f"{path}:{getattr(table, 'line', 1)}: rank {rank}'s mock cluster descriptor "
                                f"{filename} does not exist")
        out[rank] = resolved
    if sorted(out) != list(range(len(out))) or (ranks is not None and sorted(out) != ranks):
        raise TopologyError(f"{path}: mock cluster descriptors are given for ranks {sorted(out)}"
                            + (f", the rank bindings have ranks {ranks}" if ranks is not None else
                               "; expected ranks 0..N-1"))
    return out


CLUSTER_ARCHS = {"wormhole": "wormhole_b0", "wormhole_b0": "wormhole_b0", "blackhole": "blackhole"}


def mock_cluster_chips(path: str) -> tuple[str, int]:
    """A mock cluster descriptor's architecture and number of chips (its `arch` mapping of chip id -> arch)."""
    data = load_yaml(path, "mock cluster descriptor")
    arch = data.get("arch") if isinstance(data, dict) else None
    if not isinstance(arch, dict) or not arch:
        raise TopologyError(f"{path}:{getattr(data, 'line', 1)}: a cluster descriptor needs an 'arch' mapping of "
                            "chip ids to architectures")
    names = {CLUSTER_ARCHS.get(str(a).lower()) for a in arch.values()}
    if None in names or len(names) != 1:
        raise TopologyError(f"{path}:{arch.line}: chips must all be one of Wormhole or Blackhole "
                            f"(found {sorted(set(map(str, arch.values())))})")
    return names.pop(), len(arch)
