"""Kernel C++ into Python: the subset of C++ that tt-metal kernels are written in, as our emitter prints it
and as a user edits it, compiled to a Python generator per kernel.

A kernel is `void kernel_main() {...}` (data movement) or `void MAIN {...}` / `namespace NAMESPACE {...}`
(compute), calling tt-metal's kernel API. Declarations, assignments, `for`/`while`/`if`, C integer
arithmetic, casts, pointers into L1 (`volatile tt_l1_ptr uint32_t*`) and template calls
(`get_arg_val<uint32_t>(0)`) are understood; `#include`, `#define` and `#pragma` lines are skipped.

Each API call becomes a call on the kernel's `api` object; a call that may wait (a CB, a barrier, a
semaphore) becomes `yield from`, so the grid's scheduler runs every core's threads cooperatively. The
Python text keeps a line table back to the C++, so an error or a hang names the C++ line.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedInput

_GRAMMAR = r"""
start: _item*
_item: function | namespace | using | ";"
namespace: "namespace" NAME "{" _item* "}"
using: "using" "namespace" qname ";"
function: ("inline" | "static" | "FORCE_INLINE")* type (NAME | MAIN) ["(" [param ("," param)*] ")"] block
param: type NAME

type: TYPE_QUAL* TYPE_NAME TYPE_QUAL* pointer*
!pointer: "*" | "&"
TYPE_QUAL.3: /\b(const|constexpr|volatile|tt_l1_ptr|unsigned|signed)\b/
TYPE_NAME.3: /\b(u?int(8|16|32|64)_t|size_t|bool|float|double|int|long|char|void|auto|ptrdiff_t|CircularBuffer|Noc|UnicastEndpoint|MulticastEndpoint|TensorAccessor)\b|\bAllocatorBank\s*<\s*AllocatorBankType::\w+\s*>/
MAIN.3: /\bMAIN\b/

block: "{" _stmt* "}"
_stmt: block | declaration | expr_stmt | for_stmt | while_stmt | if_stmt | return_stmt | break_stmt
     | continue_stmt | empty
empty: ";"
declaration: type declarator ("," declarator)* ";"
declarator: NAME ["=" expr]
          | NAME "(" [expr ("," expr)*] ")" -> constructed
expr_stmt: expr ";"
for_stmt: "for" "(" (declaration | expr_stmt | empty) [expr] ";" [expr] ")" _stmt
while_stmt: "while" "(" expr ")" _stmt
if_stmt: "if" "(" expr ")" _stmt [else_part]
else_part: "else" _stmt
return_stmt: "return" [expr] ";"
break_stmt: "break" ";"
continue_stmt: "continue" ";"

?expr: assign
?assign: ternary | unary assign_op assign -> assignment
!assign_op: "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "<<=" | ">>=" | "&=" | "|=" | "^="
?ternary: logic_or | logic_or "?" expr ":" ternary -> conditional
?logic_or: logic_and | logic_or "||" logic_and -> or_
?logic_and: bit_or | logic_and "&&" bit_or -> and_
?bit_or: bit_xor | bit_or bit_or_op bit_xor -> binop
?bit_xor: bit_and | bit_xor bit_xor_op bit_and -> binop
?bit_and: equality | bit_and bit_and_op equality -> binop
?equality: relation | equality eq_op relation -> binop
?relation: shift | relation rel_op shift -> binop
?shift: sum | shift shift_op sum -> binop
?sum: product | sum add_op product -> binop
?product: unary | product mul_op unary -> binop
!bit_or_op: "|"
!bit_xor_op: "^"
!bit_and_op: "&"
!eq_op: "==" | "!="
!rel_op: "<=" | ">=" | "<" | ">"
!shift_op: "<<" | ">>"
!add_op: "+" | "-"
!mul_op: "*" | "/" | "%"
?unary: postfix
      | "-" unary -> neg
      | "+" unary
      | "!" unary -> not_
      | "~" unary -> invert
      | "*" unary -> deref
      | "&" unary -> address_of
      | "++" unary -> pre_inc
      | "--" unary -> pre_dec
      | "(" type ")" unary -> cast
?postfix: primary
        | postfix "[" expr "]" -> index
        | postfix "++" -> post_inc
        | postfix "--" -> post_dec
        | postfix "." NAME [METHOD_TEMPLATE] "(" [_arg ("," _arg)*] ")" -> method_call
?primary: NUMBER -> number
        | "true" -> true
        | "false" -> false
        | qname -> name
        | TEMPLATE_CALLEE "(" [_arg ("," _arg)*] ")" -> template_call
        | qname "(" [_arg ("," _arg)*] ")" -> call
        | TYPE_NAME "(" [_arg ("," _arg)*] ")" -> functional_cast
        | "(" expr ")"
qname: ROOT? NAME ("::" NAME)*
ROOT: "::"
// a call's argument may be a braced initializer, designated (`{.noc_x = x, .addr = a}`) or typed (`T::U{...}`)
_arg: expr | init_list
init_list: BRACED_TYPE? "{" [_init_item ("," _init_item)*] "}"
_init_item: designated | expr
designated: "." NAME "=" _arg
BRACED_TYPE.3: /[A-Za-z_]\w*(<[^<>;(){}]*>)?(::[A-Za-z_]\w*)+(?=\s*\{)|NocOptVals(?=\s*\{)/
METHOD_TEMPLATE: /<[^<>;(){}]*>(?=\s*\()/

TEMPLATE_CALLEE.2: /(::)?[A-Za-z_]\w*(::[A-Za-z_]\w*)*\s*<([^<>;(){}]|<([^<>;(){}]|<[^<>;(){}]*>)*>|\([^<>;(){}]*\))*>(?=\s*\()/
NUMBER: /(0[xX][0-9a-fA-F]+|\d+\.\d*([eE][+-]?\d+)?[fF]?|\d+[eE][+-]?\d+[fF]?|\d+)[uUlL]*/
NAME: /[A-Za-z_]\w*/
COMMENT: /\/\/[^\n]*/ | /\/\*(.|\n)*?\*\//
PREPROCESSOR: /#[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
%ignore PREPROCESSOR
"""

# cache=True: the LALR tables are kept in the temporary folder, keyed by the grammar and lark's version (building
# them costs each process that runs a kernel 0.35 s; loading them, 0.05 s)
_PARSER = Lark(_GRAMMAR, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=True,
               start=["start", "expr"])

_UNSIGNED_BITS = {"uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "uint64_t": 64, "size_t": 64}
_SIGNED_BITS = {"int8_t": 8, "int16_t": 16, "int32_t": 32, "int64_t": 64, "int": 32, "long": 64}
_FLOATS = {"float", "double"}
# expressions that call or read memory: a loop of stores computing its value with one is not a fill
_IMPURE = frozenset({"call", "template_call", "method_call", "index", "deref", "assignment", "post_inc", "post_dec",
                     "pre_inc", "pre_dec"})
_PY_BINOPS = {"||": "or", "&&": "and"}
_ENTRY_POINTS = ("kernel_main", "MAIN")
# tt-metal's object API: `CircularBuffer cb(id); cb.wait_front(1);` is `cb_wait_front(id, 1)`.
_CB_METHODS = {"push_back": "cb_push_back", "pop_front": "cb_pop_front", "wait_front": "cb_wait_front",
               "reserve_back": "cb_reserve_back", "get_read_ptr": "get_read_ptr", "get_write_ptr": "get_write_ptr",
               "get_tile_size": "get_tile_size"}
# ... and `Noc noc0(0); noc0.async_read(unicast_ep, ...)` is `noc_async_read` on NoC 0, far side named by its endpoint
_NOC_METHODS = {"async_read": "noc_object_read", "async_write": "noc_object_write",
                "async_write_multicast": "noc_object_write_multicast", "async_read_barrier": "noc_async_read_barrier",
                "set_async_read_state": "noc_object_set_read_state",
                "async_read_with_state": "noc_object_read_with_state",
                "async_write_barrier": "noc_async_write_barrier", "async_full_barrier": "noc_async_full_barrier",
                "async_writes_flushed": "noc_async_writes_flushed", "async_atomic_barrier": "noc_async_atomic_barrier",
                "inline_dw_write": "noc_object_inline_dw_write", "get_noc_id": "noc_object_id"}
_ENDPOINTS = {"UnicastEndpoint": "unicast", "MulticastEndpoint": "mcast"}  # AllocatorBank<...DRAM>: "dram"
# an endpoint kind's read with its far side's fields given apart: (the API's method, the fields in order)
_DIRECT_READS = {"unicast": ("noc_unicast_read", "noc_x", "noc_y", "addr"), "dram": ("noc_dram_read", "bank_id", "addr")}
_OBJECT_METHODS = {"CircularBuffer": _CB_METHODS, "Noc": _NOC_METHODS,
                   "UnicastEndpoint": {"get_noc_unicast_addr": "endpoint_unicast_addr"},
                   "TensorAccessor": {"get_aligned_page_size": "tensor_accessor_page_size"},
                   "TensorAccessorArgs": {"next_compile_time_args_offset": "tensor_accessor_next_cta",
                                          "next_common_runtime_args_offset": "tensor_accessor_next_crta"}}
# calls whose template arguments are constant expressions the kernel computes (`TensorAccessorArgs<a.next_...(), 0>`)
_EXPRESSION_TEMPLATES = {"TensorAccessorArgs": "tensor_accessor_args"}


class KernelCompileError(ValueError):
    """A kernel's C++ that this simulator cannot compile: names the kernel and the line."""


@dataclass(frozen=True)
class CompiledKernel:
    """A kernel's entry point as a Python generator function `entry(api)`, and its C++ line table."""
    name: str
    entry: object
    lines: dict[int, int]  # generated Python line -> C++ line
    python: str

    def cpp_line(self, python_line: int) -> int | None:
        return self.lines.get(python_line)


def compile_kernel(source: str, name: str, blocking: frozenset[str], cache: dict | None = None) -> CompiledKernel:
    """`source`'s entry point as a generator function; `blocking` names the API calls that may wait.
    `cache` (a dict owned by the caller, keyed by source hash) holds kernels compiled before."""
    key = hashlib.sha256(source.encode()).hexdigest()
    if cache is not None and key in cache:
        return cache[key]
    try:
        tree = _PARSER.parse(source, start="start")
    except UnexpectedInput as error:
        raise KernelCompileError(f"kernel '{name}' line {error.line}:{error.column}: cannot parse C++ "
                                 f"({type(error).__name__.replace('Unexpected', 'unexpected ').lower()})") from None
    except LarkError as error:
        raise KernelCompileError(f"kernel '{name}': cannot parse C++ ({error})") from None
    python, lines = _Emitter(name, blocking).module(tree)
    namespace: dict = {"_wrap": _wrap, "_cdiv": _cdiv, "_cmod": _cmod, "_INF": float("inf"), "_NAN": float("nan")}
    exec(compile(python, f"<kernel {name}>", "exec"), namespace)
    compiled = CompiledKernel(name, namespace["_entry"], lines, python)
    if cache is not None:
        cache[key] = compiled
    return compiled


def _wrap(value, bits: int, signed: bool):
    """C's conversion of an integer to a fixed-width type (a multicast NoC address, opaque here, passes as it is)."""
    if type(value) is not int:  # the common case first: this runs for every integer a kernel computes
        if isinstance(value, tuple):
            return value
        value = int(value)
    value &= (1 << bits) - 1
    return value - (1 << bits) if signed and value >> (bits - 1) else value


_INTEGER = re.compile(r"\(?-?\d+\)?")


# the kernel API's integer globals a kernel reads (tt-metal declares the logical coordinates uint8_t)
_API_CONSTANT_RANGES = {"my_logical_x_": (0, 255), "my_logical_y_": (0, 255), "noc_index": (0, 1)}
# the API's globals every kernel has: read once per function call, not at every use
# <cmath>'s float macros a kernel may name
_MATH_MACROS = {"INFINITY": "_INF", "NAN": "_NAN"}
_API_GLOBALS = frozenset({"my_x", "my_y", *_API_CONSTANT_RANGES})


def _int_type_range(ctype: str) -> tuple[int, int] | None:
    """The values of a C integer type; None for any other type."""
    if ctype in _UNSIGNED_BITS:
        return 0, (1 << _UNSIGNED_BITS[ctype]) - 1
    if ctype in _SIGNED_BITS:
        bits = _SIGNED_BITS[ctype]
        return -(1 << bits - 1), (1 << bits - 1) - 1
    return None


def _cdiv(a, b):
    if type(a) is int and type(b) is int and a >= 0 and b > 0:  # the common case, where C and Python agree
        return a // b
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("integer division by zero")
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    return a / b


def _cmod(a, b):
    if type(a) is int and type(b) is int and a >= 0 and b > 0:
        return a % b
    return a - _cdiv(a, b) * b if isinstance(a, int) and isinstance(b, int) else float.__mod__(float(a), b)


def _fold(a: str, op: str, b: str, integers: bool) -> str:
    """`a op b` in Python, computed here when both are integer literals and, when both are integers, without the
    operation when one side is its identity (x + 0, x * 1, ...)."""
    left, right = (int(t.strip("()")) if _INTEGER.fullmatch(t) else None for t in (a, b))
    if left is not None and right is not None and op in ("+", "-", "*"):
        value = left + right if op == "+" else left - right if op == "-" else left * right
        return str(value) if value >= 0 else f"({value})"
    if not integers:
        return f"({a} {op} {b})"
    if right == 0 and op in ("+", "-") or right == 1 and op == "*":
        return a
    if left == 0 and op == "+" or left == 1 and op == "*":
        return b
    return f"({a} {op} {b})"


def _op(node: Tree) -> str:
    """The operator of a binary or assignment node (its middle child, an operator rule holding one token)."""
    return str(node.children[1].children[0])


class _Emitter:
    """One pass over the parse tree, writing Python. C names become `c_<name>` locals (no clash with
    Python's keywords or the helpers); calls to anything not declared in the kernel go to `api`."""

    def __init__(self, kernel: str, blocking: frozenset[str]):
        self.kernel, self.blocking = kernel, blocking
        self.out: list[str] = []
        self.lines: dict[int, int] = {}
        self.functions: set[str] = set()
        self.types: list[dict[str, str]] = []
        self.converted: dict[str, tuple[int, bool]] = {}  # an emitted conversion -> the (bits, signed) it gives
        self.params: set[str] = set()  # the running function's parameters (their values are not converted)
        self.single: set[str] = set()  # its variables declared once, with a value, and never assigned
        self.literals: dict[str, str] = {}  # such a variable whose value is an integer literal -> the literal
        self.value_ranges: dict[str, tuple[int, int]] = {}  # the values such an integer variable may hold
        # (scope, counted loop's variable) -> the values it takes (Python's range: not converted), None if unknown
        self.loop_ranges: dict[tuple[int, str], tuple[int, int] | None] = {}

    def fail(self, node, message: str):
        line = getattr(getattr(node, "meta", None), "line", None) or getattr(node, "line", "?")
        raise KernelCompileError(f"kernel '{self.kernel}' line {line}: {message}")

    def emit(self, indent: int, text: str, node=None) -> None:
        self.out.append("    " * indent + text)
        meta = getattr(node, "meta", None)
        if meta is not None and not getattr(meta, "empty", True):
            self.lines[len(self.out)] = meta.line

    def module(self, tree: Tree) -> tuple[str, dict[int, int]]:
        functions = list(tree.find_data("function"))
        names = [self.function_name(f) for f in functions]
        self.functions = set(names)
        for function in functions:
            self.function(function)
        entry = next((n for n in _ENTRY_POINTS if n in names), None)
        if entry is None:
            raise KernelCompileError(f"kernel '{self.kernel}': no entry point (void kernel_main() or void MAIN)")
        self.emit(0, f"_entry = f_{entry}")
        return "\n".join(self.out) + "\n", self.lines

    @staticmethod
    def function_name(node: Tree) -> str:
        return next(str(c) for c in node.children if isinstance(c, Token))

    def function(self, node: Tree) -> None:
        name, body = self.function_name(node), node.children[-1]
        params = [c for c in node.children if isinstance(c, Tree) and c.data == "param"]
        self.types.append({str(p.children[1]): self.type_name(p.children[0]) for p in params})
        self.params = set(self.types[-1])
        self.single, self.value_ranges, self.literals = self.single_assignments(body), {}, {}
        args = ", ".join(["api"] + [f"c_{p.children[1]}" for p in params])
        self.emit(0, f"def f_{name}({args}):", node)
        self.emit(1, "if False: yield")  # a generator even when it never waits
        used = {self.qname(sub.children[0]) for sub in body.iter_subtrees() if sub.data == "name"}
        for global_name in sorted(used & _API_GLOBALS):
            self.emit(1, f"_k_{global_name} = api.constant({global_name!r})")
        self.block(body, 1)
        self.types.pop()

    def single_assignments(self, body: Tree) -> set[str]:
        """The variables of a function body declared once, with a value, and never assigned: the values their
        initializers may take bound their every use."""
        declared: dict[str, list[Tree]] = {}
        for declaration in body.find_data("declaration"):
            for declarator in declaration.children[1:]:
                declared.setdefault(str(declarator.children[0]), []).append(declarator)
        assigned = {self.qname(sub.children[0].children[0]) for sub in body.iter_subtrees()
                    if sub.data in ("assignment", "post_inc", "post_dec", "pre_inc", "pre_dec")
                    and sub.children[0].data == "name"}
        return {name for name, declarators in declared.items() if len(declarators) == 1 and name not in assigned
                and name not in self.params and declarators[0].data == "declarator"
                and declarators[0].children[1] is not None}

    def int_range(self, node) -> tuple[int, int] | None:
        """The values an integer expression may take, as the kernel's literals and types bound them (each store to
        a local of an integer type converts to it; a counted loop's variable stays in its range); None when
        unknown, or when it may not be an integer."""
        kind = node.data if isinstance(node, Tree) else None
        if kind == "number":
            text = self.expr(node)
            return (int(text), int(text)) if _INTEGER.fullmatch(text) else None
        if kind == "name":
            name = self.qname(node.children[0])
            scope = next((s for s in reversed(self.types) if name in s), None)
            if scope is None:
                return _API_CONSTANT_RANGES.get(name)
            if name in self.params and scope is self.types[0]:
                return None
            if name in self.value_ranges:
                return self.value_ranges[name]
            if (id(scope), name) in self.loop_ranges:
                return self.loop_ranges[(id(scope), name)]
            return _int_type_range(scope[name])
        if kind == "cast":  # the operand's values when the type holds them all, else any of the type's
            bounds, held = _int_type_range(self.type_name(node.children[0])), self.int_range(node.children[1])
            return held if bounds and held and bounds[0] <= held[0] and held[1] <= bounds[1] else bounds
        if kind != "binop":
            return None
        op, a, b = _op(node), self.int_range(node.children[0]), self.int_range(node.children[2])
        if a is None or b is None:
            return None
        if op in ("+", "-", "*"):
            fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[op]
            corners = [fn(x, y) for x in a for y in b]
            return min(corners), max(corners)
        if op in ("/", "%") and a[0] >= 0 and b[0] > 0:
            return (a[0] // b[1], a[1] // b[0]) if op == "/" else (0, min(a[1], b[1] - 1))
        return None

    def divide(self, left, right, op: str) -> str:
        """C's `/` or `%`: Python's where both are integers, the divisor positive and the dividend non-negative
        (there C and Python agree), tested inline for a signed dividend; else the helper's full C semantics."""
        a, b, helper = self.expr(left), self.expr(right), "_cdiv" if op == "/" else "_cmod"
        dividend, divisor = self.int_range(left), self.int_range(right)
        if _INTEGER.fullmatch(a) and _INTEGER.fullmatch(b) and int(b.strip("()")):  # two constants: computed here
            value = (_cdiv if op == "/" else _cmod)(int(a.strip("()")), int(b.strip("()")))
            return str(value) if value >= 0 else f"({value})"
        if dividend is None or divisor is None or divisor[0] <= 0:
            return f"{helper}({a}, {b})"
        if divisor == (1, 1):  # an integer over 1: itself, remainder 0
            return a if op == "/" else "0"
        py_op = "//" if op == "/" else "%"
        if dividend[0] >= 0:
            return f"({a} {py_op} {b})"
        if left.data == "name":  # a signed local: its sign tested where it runs
            return f"({a} {py_op} {b} if {a} >= 0 else {helper}({a}, {b}))"
        return f"{helper}({a}, {b})"

    @staticmethod
    def type_name(node: Tree) -> str:
        tokens = [c for c in node.children if isinstance(c, Token)]
        names = [str(t) for t in tokens if t.type == "TYPE_NAME"]
        pointer = any(isinstance(c, Tree) and str(c.children[0]) == "*" for c in node.children)
        quals = {str(t) for t in tokens if t.type == "TYPE_QUAL"}
        base = names[0] if names else "int"
        if "unsigned" in quals and base in ("int", "long", "char"):
            base = {"int": "uint32_t", "long": "uint64_t", "char": "uint8_t"}[base]
        return base + "*" if pointer else base

    def lookup(self, name: str) -> str | None:
        for scope in reversed(self.types):
            if name in scope:
                return scope[name]
        return None

    def block(self, node: Tree, indent: int) -> None:
        self.types.append({})
        statements = node.children if node.data == "block" else [node]
        start = len(self.out)
        for statement in statements:
            self.statement(statement, indent)
        if len(self.out) == start:
            self.emit(indent, "pass")
        self.types.pop()

    def statement(self, node, indent: int) -> None:
        if not isinstance(node, Tree):
            return
        kind = node.data
        if kind == "empty":
            self.emit(indent, "pass")
        elif kind == "block":
            self.block(node, indent)
        elif kind == "declaration":
            ctype = self.type_name(node.children[0])
            for declarator in node.children[1:]:
                name, init = str(declarator.children[0]), declarator.children[1]
                self.types[-1][name] = ctype
                if declarator.data == "constructed":
                    args = [self.expr(a) for a in declarator.children[1:] if a is not None]
                    value = self.construct(ctype, args, declarator)
                elif init is None:
                    value = repr(_ENDPOINTS.get(ctype, "dram" if ctype.startswith("AllocatorBank") else 0))
                else:
                    value = self.convert(self.expr(init), ctype, init)
                    held, bounds = self.int_range(init), _int_type_range(ctype)
                    if name in self.single and bounds is not None:  # what the conversion leaves it
                        self.value_ranges[name] = held if held and bounds[0] <= held[0] and held[1] <= bounds[1] \
                            else bounds
                        if _INTEGER.fullmatch(value):  # a constant: its uses read the literal
                            self.literals[name] = value if not value.startswith("-") else f"({value})"
                            continue
                self.emit(indent, f"c_{name} = {value}", node)
        elif kind == "expr_stmt":
            self.emit(indent, self.expr(node.children[0], statement=True), node)
        elif kind == "if_stmt":
            cond, then, otherwise = node.children
            self.emit(indent, f"if {self.expr(cond)}:", node)
            self.block(then, indent + 1)
            if otherwise is not None:
                self.emit(indent, "else:")
                self.block(otherwise.children[0], indent + 1)
        elif kind == "while_stmt":
            cond, body = node.children
            self.emit(indent, f"while {self.expr(cond)}:", node)
            self.emit(indent + 1, "api.spin()", node)  # an unbounded loop that never waits is a hang too
            self.block(body, indent + 1)
        elif kind == "for_stmt":
            self.for_stmt(node, indent)
        elif kind == "return_stmt":
            value = node.children[0]
            self.emit(indent, "return" if value is None else f"return {self.expr(value)}", node)
        elif kind == "break_stmt":
            self.emit(indent, "break", node)
        elif kind == "continue_stmt":
            self.emit(indent, "continue", node)
        else:
            self.fail(node, f"unsupported statement '{kind}'")

    def for_stmt(self, node: Tree, indent: int) -> None:
        init, cond, step, body = node.children
        self.types.append({})
        counted = self.counted_loop(init, cond, step, body)
        fill = self.fill_loop(counted[0], body) if counted is not None else None
        if fill is not None:  # a loop of stores of one value: the stores at once, the value computed once
            (var, start, stop, stride), (declarations, pointer, value) = counted, fill
            self.emit(indent, f"_fill = range({start}, {stop}, {stride})", node)
            self.emit(indent, "if _fill:")
            for declaration in declarations:
                self.statement(declaration, indent + 1)
            self.emit(indent + 1, f"api.fill({self.expr(pointer)}, _fill, {self.expr(value)})", node)
        elif counted is not None:
            var, start, stop, stride = counted
            self.emit(indent, f"for c_{var} in range({start}, {stop}, {stride}):", node)
            self.block(body, indent + 1)
        else:  # the general form; `continue` must still run the step, so the step opens each later pass
            self.statement(init, indent)
            first = f"_first{len(self.out)}"
            self.emit(indent, f"{first} = True", node)
            self.emit(indent, "while True:", node)
            self.emit(indent + 1, "api.spin()", node)
            if step is not None:
                self.emit(indent + 1, f"if not {first}: {self.expr(step, statement=True)}")
            self.emit(indent + 1, f"{first} = False")
            if cond is not None:
                self.emit(indent + 1, f"if not ({self.expr(cond)}): break")
            self.block(body, indent + 1)
        if counted is not None:
            self.loop_ranges.pop((id(self.types[-1]), counted[0]), None)
        self.types.pop()

    def counted_loop(self, init, cond, step, body):
        """`for (T i = a; i < b; i += c)` with `i` untouched in the body: a Python range."""
        if not (isinstance(init, Tree) and init.data == "declaration" and len(init.children) == 2):
            return None
        var = str(init.children[1].children[0])
        start = init.children[1].children[1]
        if start is None or cond is None or step is None or cond.data != "binop" or _op(cond) != "<":
            return None
        if not (cond.children[0].data == "name" and self.qname(cond.children[0].children[0]) == var):
            return None
        if step.data == "assignment" and _op(step) == "+=":
            target, stride = step.children[0], self.expr(step.children[2])
        elif step.data in ("post_inc", "pre_inc"):
            target, stride = step.children[0], "1"
        else:
            return None
        if not (target.data == "name" and self.qname(target.children[0]) == var):
            return None
        for sub in body.iter_subtrees() if isinstance(body, Tree) else ():
            if sub.data in ("assignment", "post_inc", "post_dec", "pre_inc", "pre_dec", "address_of") and \
                    sub.children[0].data == "name" and self.qname(sub.children[0].children[0]) == var:
                return None
        self.types[-1][var] = self.type_name(init.children[0])
        first, stop = self.int_range(start), self.int_range(cond.children[2])
        step_range = (1, 1) if stride == "1" else self.int_range(step.children[2])
        known = first is not None and stop is not None and step_range is not None and step_range[0] > 0
        self.loop_ranges[(id(self.types[-1]), var)] = (first[0], max(first[1], stop[1] - 1)) if known else None
        return var, self.expr(start), self.expr(cond.children[2]), stride

    def fill_loop(self, var: str, body) -> tuple[list[Tree], Tree, Tree] | None:
        """A counted loop's body `{ T j = (T) i; U v = <x>; p[j] = v; }`: declarations free of calls and loads,
        then one store at the loop's index (or an integer of at least 32 bits converted from it) of a value and
        through a pointer that no pass changes. Its (the declarations the value needs, pointer, value), else
        None."""
        statements = body.children if isinstance(body, Tree) and body.data == "block" else [body]
        if not statements or not all(isinstance(st, Tree) for st in statements):
            return None
        *declarations, last = statements
        if last.data != "expr_stmt" or last.children[0].data != "assignment" or _op(last.children[0]) != "=" \
                or last.children[0].children[0].data != "index":
            return None
        (pointer, index), value = last.children[0].children[0].children, last.children[0].children[2]

        def names(node: Tree) -> set[str] | None:  # the names it reads; None when it calls or loads
            if any(sub.data in _IMPURE for sub in node.iter_subtrees()):
                return None
            return {self.qname(sub.children[0]) for sub in node.iter_subtrees() if sub.data == "name"}

        varying, kept, indices = {var}, [], {var}
        for declaration in declarations:
            if declaration.data != "declaration" or len(declaration.children) != 2 or \
                    declaration.children[1].data != "declarator" or declaration.children[1].children[1] is None:
                return None
            name, init = str(declaration.children[1].children[0]), declaration.children[1].children[1]
            read = names(init)
            if read is None:
                return None
            if read & varying:
                ctype = self.type_name(declaration.children[0])
                source = init.children[1] if init.data == "cast" else init
                if source.data != "name" or self.qname(source.children[0]) != var or \
                        (_UNSIGNED_BITS | _SIGNED_BITS).get(ctype, 0) < 32:
                    return None
                indices.add(name)
                varying.add(name)
            else:
                kept.append(declaration)
        if index.data != "name" or self.qname(index.children[0]) not in indices:
            return None
        pointer_names, value_names = names(pointer), names(value)
        if pointer_names is None or value_names is None or (pointer_names | value_names) & varying:
            return None
        return kept, pointer, value

    @staticmethod
    def qname(node: Tree) -> str:
        return "::".join(str(t) for t in node.children if t.type == "NAME")

    def convert(self, value: str, ctype: str | None, node: Tree | None = None) -> str:
        """`value` (the Python of expression `node`, when given) converted to `ctype` as C converts."""
        if ctype in _UNSIGNED_BITS or ctype in _SIGNED_BITS:
            bits, signed = (_UNSIGNED_BITS[ctype], False) if ctype in _UNSIGNED_BITS else (_SIGNED_BITS[ctype], True)
            if _INTEGER.fullmatch(value):  # a literal converts once, here, not on every pass
                return str(_wrap(int(value.strip("()")), bits, signed))
            if self.converted.get(value) == (bits, signed):
                return value  # converting to the type it already has
            known, (low, high) = node is not None and self.int_range(node), _int_type_range(ctype)
            if known and low <= known[0] and known[1] <= high:
                return value  # an integer the types keep in range: converting leaves it as it is
            # inline, an integer already in range is kept without a call; anything else goes through `_wrap`
            text = f"(_v if type(_v := {value}) is int and {low} <= _v <= {high} else _wrap(_v, {bits}, {signed}))"
            self.converted[text] = (bits, signed)
            return text
        if ctype in _FLOATS:
            return f"float({value})"
        if ctype == "bool":
            return value if node is not None and self.is_bool(node) else f"bool({value})"
        return value

    def is_bool(self, node) -> bool:
        """Whether an expression's Python value is a bool: a comparison, a negation, a bool literal or local, or
        `&`, `|`, `^` of such."""
        kind = node.data if isinstance(node, Tree) else None
        if kind in ("true", "false", "not_"):
            return True
        if kind == "name":
            name = self.qname(node.children[0])
            return self.lookup(name) == "bool" and not (name in self.params and name in self.types[0])
        if kind != "binop":
            return False
        op = _op(node)
        return op in ("<", ">", "<=", ">=", "==", "!=") or \
            op in ("&", "|", "^") and self.is_bool(node.children[0]) and self.is_bool(node.children[2])

    def expr(self, node, statement: bool = False) -> str:
        kind = node.data if isinstance(node, Tree) else None
        if kind in ("call", "template_call"):
            return self.call(node, statement)
        if kind == "method_call":
            return self.method_call(node, statement)
        if statement and kind in ("assignment", "post_inc", "post_dec", "pre_inc", "pre_dec"):
            target = node.children[0]
            op = {"post_inc": "+=", "pre_inc": "+=", "post_dec": "-=", "pre_dec": "-="}.get(kind)
            value = "1" if op else self.expr(node.children[2])
            op = op or _op(node)
            return self.store(target, op, value, node)
        if kind in ("assignment", "post_inc", "post_dec", "pre_inc", "pre_dec"):
            self.fail(node, "an assignment inside an expression is not supported; write it as its own statement")
        if kind == "number":
            text = str(node.children[0]).rstrip("uUlL")
            if text[:2].lower() != "0x" and any(c in text for c in ".eEfF"):
                return repr(float(text.rstrip("fF")))
            return str(int(text, 0) if not (len(text) > 1 and text[0] == "0" and text.isdigit()) else int(text, 8))
        if kind == "true":
            return "True"
        if kind == "false":
            return "False"
        if kind == "name":
            name = self.qname(node.children[0])
            if self.lookup(name) is None:
                if name in _MATH_MACROS:
                    return _MATH_MACROS[name]
                return f"_k_{name}" if name in _API_GLOBALS else f"api.constant({name!r})"
            return self.literals.get(name, f"c_{name}")
        if kind == "binop":
            left, _, right = node.children
            op = _op(node)
            if op in ("/", "%"):
                return self.divide(left, right, op)
            return _fold(self.expr(left), op, self.expr(right),
                         self.int_range(left) is not None and self.int_range(right) is not None)
        if kind in ("or_", "and_"):
            return f"({self.expr(node.children[0])} {'or' if kind == 'or_' else 'and'} {self.expr(node.children[1])})"
        if kind == "conditional":
            cond, then, otherwise = node.children
            return f"({self.expr(then)} if {self.expr(cond)} else {self.expr(otherwise)})"
        if kind == "neg":
            return f"(-{self.expr(node.children[0])})"
        if kind == "not_":
            return f"(not {self.expr(node.children[0])})"
        if kind == "invert":
            return f"(~{self.expr(node.children[0])})"
        if kind == "unary":
            return self.expr(node.children[0])
        if kind == "deref":
            return f"api.load({self.expr(node.children[0])}, 0)"
        if kind == "index":
            return f"api.load({self.expr(node.children[0])}, {self.expr(node.children[1])})"
        if kind == "cast":
            return self.cast(self.type_name(node.children[0]), self.expr(node.children[1]), node.children[1])
        if kind == "functional_cast":  # `T(x)`, or constructing an object: `TensorAccessor(args, base, page)`
            ctype, args = str(node.children[0]), [self.expr(a) for a in node.children[1:] if a is not None]
            if ctype == "TensorAccessor":
                return f"api.TensorAccessor({', '.join(args)})"
            if len(args) != 1:
                self.fail(node, f"'{ctype}' takes one value to convert")
            return self.cast(ctype, args[0])
        if kind == "init_list":  # a braced initializer: designated fields as a dict, positional ones as a list
            items = [c for c in node.children if isinstance(c, Tree)]
            if items and all(c.data == "designated" for c in items):
                return "{" + ", ".join(f"{str(c.children[0])!r}: {self.expr(c.children[1])}" for c in items) + "}"
            if any(c.data == "designated" for c in items):
                self.fail(node, "an initializer mixing designated and positional fields is not supported")
            return "[" + ", ".join(self.expr(c) for c in items) + "]"
        if kind == "address_of":
            self.fail(node, "taking an address (&) is not supported")
        self.fail(node, f"unsupported expression '{kind}'")

    def construct(self, ctype: str, args: list[str], node) -> str:
        if ctype in ("CircularBuffer", "Noc") and len(args) == 1:
            return f"int({args[0]})"
        if len(args) == 1:
            return self.convert(args[0], ctype)
        self.fail(node, f"constructing a '{ctype}' from {len(args)} argument(s) is not supported")

    def method_call(self, node: Tree, statement: bool) -> str:
        """`obj.method(args)`, or `obj.method<T>(args)`: the API's `<mapped>_t` with the template text first."""
        obj, method, template, *args = node.children
        owner = self.lookup(self.qname(obj.children[0])) if obj.data == "name" else None
        if owner not in _OBJECT_METHODS:  # `auto`: the object whose API has the method
            owner = next((t for t, methods in _OBJECT_METHODS.items() if str(method) in methods), "CircularBuffer")
        methods = _OBJECT_METHODS[owner]
        if str(method) not in methods:
            self.fail(node, f"method '{method}' is not supported ({owner} methods: {', '.join(methods)})")
        if owner == "Noc" and str(method) == "async_read" and template is None:
            direct = self.direct_read(obj, [a for a in args if a is not None], statement, node)
            if direct is not None:
                return direct
        values = [self.expr(obj)] + [self.expr(a) for a in args if a is not None]
        if template is not None:
            return self.api_call(methods[str(method)] + "_t", [repr(str(template)[1:-1].strip())] + values,
                                 str(method), statement, node)
        return self.api_call(methods[str(method)], values, str(method), statement, node)

    def direct_read(self, noc: Tree, args: list, statement: bool, node) -> str | None:
        """`noc.async_read(ep, dst, size, {.noc_x = .., .noc_y = .., .addr = ..}, {})` from a unicast (or DRAM bank)
        endpoint with its far side's fields written out: the API's read of those fields given apart (no dict made
        and checked per read); None for any other form."""
        if len(args) != 5 or args[0].data != "name" or args[3].data != "init_list":
            return None
        ctype = self.lookup(self.qname(args[0].children[0])) or ""
        kind = _ENDPOINTS.get(ctype, "dram" if ctype.startswith("AllocatorBank") else None)
        items = [c for c in args[3].children if isinstance(c, Tree)]
        fields = _DIRECT_READS.get(kind)
        if fields is None or [str(c.children[0]) for c in items if c.data == "designated"] != list(fields[1:]) or \
                len(items) != len(fields) - 1:
            return None
        values = [self.expr(noc), *(self.expr(a) for a in args[1:3]), *(self.expr(c.children[1]) for c in items)]
        return self.api_call(fields[0], values, "async_read", statement, node)

    def api_call(self, name: str, args: list[str], spelled: str, statement: bool, node) -> str:
        """`api.name(args)`, or when the call may wait (only as a statement), the wait it returns (none when it is
        done at once) waited through."""
        call = f"api.{name}({', '.join(args)})"
        if name in self.blocking:
            if not statement:
                self.fail(node, f"'{spelled}' waits, so it must be called as a statement, not used as a value")
            return f"((yield from _w) if (_w := {call}) is not None else None)"
        return call

    def template_values(self, template: str, node) -> list[str]:
        """Each template argument (split at its top-level commas) compiled as an expression."""
        pieces, depth, start = [], 0, 0
        for i, c in enumerate(template + ","):
            depth += c in "(<" and 1 or (-1 if c in ")>" else 0)
            if c == "," and depth == 0:
                pieces.append(template[start:i].strip())
                start = i + 1
        values = []
        for piece in pieces:
            try:
                values.append(self.expr(_PARSER.parse(piece, start="expr")))
            except LarkError:
                self.fail(node, f"template argument '{piece}' is not an expression")
        return values

    def cast(self, ctype: str, value: str, node: Tree | None = None) -> str:
        if ctype.endswith("*"):
            return f"api.pointer({value}, {ctype[:-1]!r})"
        return self.convert(value, ctype, node)

    def store(self, target: Tree, op: str, value: str, node) -> str:
        if target.data == "name":
            name = self.qname(target.children[0])
            ctype = self.lookup(name)
            if ctype is None:
                self.fail(node, f"assignment to undeclared '{name}'")
            current = f"c_{name}"
            new = value if op == "=" else self.combine(current, op[:-1], value)
            return f"{current} = {self.convert(new, ctype, node.children[2] if op == '=' else None)}"
        if target.data in ("deref", "index"):
            pointer = self.expr(target.children[0])
            offset = "0" if target.data == "deref" else self.expr(target.children[1])
            new = value if op == "=" else self.combine(f"api.load({pointer}, {offset})", op[:-1], value)
            return f"api.store({pointer}, {offset}, {new})"
        self.fail(node, "unsupported assignment target")

    @staticmethod
    def combine(a: str, op: str, b: str) -> str:
        return f"_cdiv({a}, {b})" if op == "/" else f"_cmod({a}, {b})" if op == "%" else f"({a} {op} {b})"

    def call(self, node: Tree, statement: bool) -> str:
        callee, *args = node.children
        if node.data == "template_call":
            text = str(callee)
            base, template = text[:text.index("<")].strip(), text[text.index("<") + 1:text.rindex(">")].strip()
            name = base.split("::")[-1]
        else:
            name, template = self.qname(callee).split("::")[-1], None
        args = [self.expr(a) for a in args if a is not None]
        if name == "CoreLocalMem":  # a local address as the NoC object API takes it: the address itself
            return f"int({args[0]})"
        if name in ("static_cast", "reinterpret_cast"):
            return self.cast(template.replace("volatile", "").replace("tt_l1_ptr", "").replace("const", "")
                             .replace(" ", ""), args[0])
        if name in self.functions:
            call = f"f_{name}(api{''.join(', ' + a for a in args)})"
            return f"(yield from {call})"
        if template is not None and name in _EXPRESSION_TEMPLATES:
            return self.api_call(_EXPRESSION_TEMPLATES[name], self.template_values(template, node) + args, name,
                                 statement, node)
        if template is not None:
            args = [repr(template)] + args
            name = f"{name}_t"
        return self.api_call(name, args, name, statement, node)
