"""The Flet patches that make flet-web 1.0.5 do the same work for less (2, 10, 11, 12, 13 of
views/flet_patches/__init__.py): each gives the same result as Flet's own code, which
tests/test_flet_patches.py checks. Why each exists, what it saves and the upstream fix it stands
in for: docs/decisions/flet-patches-speed.md.

2. A debug string built for every message sent (`_send_message`).
10. No empty "validation errors reported" set attached to every control (`_ReportedOnFirstUse`).
11. The diff's walks through a new or removed control's fields read only the fields that can
   hold something (`_configure_dataclass`, `_removed_controls`, `_held`), and return lists, not a
   generator per level.
12. An event's payload type found once per control class and event (`_once_per_class`).
13. A control built without a call per field it leaves at its default (`_fast_init`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# -- 2. no debug string per message ----------------------------------------------------------------


def _send_message(self: Any, message: Any) -> None:
    """`send_message` formatted every outgoing message for a debug log line even with debug
    logging off: a repr of whole control trees, measured at 4-5% of the server's CPU."""
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    body = msgpack.packb([message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl))
    self._FletApp__send_queue.put_nowait(b"\x00" + body)


# -- 10. no empty error set on every control -------------------------------------------------------


class _ReportedOnFirstUse(set):  # type: ignore[type-arg]
    """Flet's `validate` asks each control, at each of its updates, for the set of validation
    errors already reported for it, and attaches an empty set to every control the first time
    (a set and a larger instance dict per control: ~90 KiB of a phone's ~500 KiB session). This
    one is attached only when an error is added to it, the one time Flet needs it kept."""

    __slots__ = ("owner",)

    def add(self, signature: Any) -> None:
        if self.owner is not None:
            from flet.utils.validation import _REPORTED_VALIDATION_ERRORS_KEY

            try:
                setattr(self.owner, _REPORTED_VALIDATION_ERRORS_KEY, self)
            except Exception:  # as Flet's: a control refusing the attribute reports every time
                pass
            self.owner = None
        super().add(signature)


def _reported_validation_errors(instance: Any) -> set[tuple[str, str]]:
    from flet.utils.validation import _REPORTED_VALIDATION_ERRORS_KEY

    reported = getattr(instance, _REPORTED_VALIDATION_ERRORS_KEY, None)
    if reported is not None:
        return reported
    lazy = _ReportedOnFirstUse()
    lazy.owner = instance
    return lazy


# -- 11. the walks over a control's fields skip what holds nothing ---------------------------------

@dataclass(frozen=True)
class _WalkPlan:
    """How to read a dataclass's fields as Flet's walks do (see `_held`)."""

    #: its fields as Flet walks them (skip-marked ones aside), in order
    names: tuple[str, ...]
    #: the position of each in `names`
    order: dict[str, int]
    #: those its Prop descriptors keep in `_values` (absent there: the default)
    props: frozenset[str]
    #: the others, read with getattr
    others: tuple[str, ...]
    #: every Prop default is a plain value (so a Prop absent from `_values` holds nothing)
    plain: bool


_WALK_PLANS: dict[type, _WalkPlan] = {}
#: per type of value: whether Flet's walks act on it (see _holds_something)
_HOLDING_TYPES: dict[type, bool] = {dict: True, list: True, str: False, int: False, float: False, bool: False}


def _holds_something(value: Any) -> bool:
    """What Flet's two walks act on: a dataclass (a control among them), a dict or a list."""
    kind = type(value)
    holds = _HOLDING_TYPES.get(kind)
    if holds is None:
        import dataclasses

        holds = isinstance(value, (dict, list)) or dataclasses.is_dataclass(value)
        if kind is not type:  # a class is a dataclass or not by itself, not by its type
            _HOLDING_TYPES[kind] = holds
    return holds


def _walk_plan(cls: type) -> _WalkPlan:
    plan = _WALK_PLANS.get(cls)
    if plan is None:
        import dataclasses

        names = tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("skip", False))
        defaults = cls.__dict__.get("_prop_defaults") or {}
        props = frozenset(name for name in names if name in defaults)
        plain = not any(_holds_something(defaults[name]) for name in props)
        order = {name: i for i, name in enumerate(names)}
        plan = _WALK_PLANS[cls] = _WalkPlan(names, order, props, tuple(n for n in names if n not in props), plain)
    return plan


def _held(item: Any) -> list[tuple[str, Any]]:
    """`item`'s fields (skip-marked ones aside, in field order) that Flet's walks act on, with
    their values. A Prop field's value is in `_values` unless it is its default, so only the
    values set and the other fields are read: a control's ~60 fields are mostly defaults."""
    plan = _walk_plan(type(item))
    values = getattr(item, "_values", None)
    if values is None or not plan.plain:
        return [(name, value) for name in plan.names if _holds_something(value := getattr(item, name))]
    props = plan.props
    held = [(name, value) for name, value in values.items() if name in props and _holds_something(value)]
    held += [(name, value) for name in plan.others if (value := getattr(item, name)) is not None and _holds_something(value)]
    if len(held) > 1:
        order = plan.order
        held.sort(key=lambda pair: order[pair[0]])
    return held


def _walked(item: Any) -> list[Any]:
    """The values Flet's walks act on in `item` (see `_held`), in field order."""
    return [value for _, value in _held(item)]


def holding_fields(item: Any) -> list[tuple[str, Any]]:
    """`item`'s public fields (as Flet names them in a patch's path) whose value is a dict, a
    list or a dataclass (a control among them), in field order: where views/sections.py looks
    for a group's children."""
    return [(name, value) for name, value in _held(item) if not name.startswith("_")]


def _configure_dataclass(self: Any, item: Any, parent: Any, frozen: bool, configure_setattr_only: bool = False) -> list[Any]:
    """Flet's `DiffBuilder._configure_dataclass` (flet 1.0.5), its walk through the fields
    reading only those that can hold something (`_walked`): every new control's ~60 fields were
    each read and walked into, a generator made for each, for a handful of values. The controls
    come as a list, in the generator's order, with the same steps in the same order: Flet's one
    caller (`get_added_controls`, under `list()`) takes them all at once, and a generator per
    level passed every control up through each level above it."""
    found: list[Any] = []
    _configure_into(self, found, item, parent, frozen, configure_setattr_only)
    return found


def _configure_into(self: Any, found: list[Any], item: Any, parent: Any, frozen: bool, configure_setattr_only: bool = False) -> None:
    import dataclasses
    import weakref

    from flet.controls.object_patch import ObjectPatchException, _control_setattr, logger

    if isinstance(item, (dict, list)):
        for v in item.values() if isinstance(item, dict) else item:
            _configure_into(self, found, v, parent, frozen)
        return
    if not dataclasses.is_dataclass(item):
        return
    logger.debug("\n_configure_dataclass: %s %s %s", item, frozen, configure_setattr_only)
    if parent is None:
        parent_ref = getattr(item, "_parent", None)
        parent = parent_ref() if parent_ref else None
    if parent:
        if parent is item:
            raise ObjectPatchException(f"Parent is the same as item: {item}")
        item._parent = weakref.ref(parent)
    if hasattr(item, "_frozen"):
        frozen = item._frozen
    elif frozen:
        item._frozen = frozen
    item_cls = item.__class__
    if getattr(item_cls, "__flet_control_cls__", None) is None:
        item_cls.__flet_control_cls__ = self.control_cls
    is_control = bool(self.control_cls) and isinstance(item, self.control_cls)
    if is_control:
        if not configure_setattr_only:
            item.build()
            item._before_update_safe()
            object.__setattr__(item, "_initialized", True)
        found.append(item)
    if not configure_setattr_only:
        child_parent = item if is_control else parent
        for value in _walked(item):
            _configure_into(self, found, value, child_parent, frozen)
    if not frozen:
        dst_dirty = getattr(item, "_dirty", None)
        if dst_dirty is not None:
            dst_dirty.clear()
        else:
            item_cls = type(item)
            if item_cls.__setattr__ is not _control_setattr:
                item_cls.__setattr__ = _control_setattr
            object.__setattr__(item, "__changes", {})


def _removed_controls(self: Any, item: Any, recurse: bool) -> list[Any]:
    """Flet's `DiffBuilder._removed_controls` (flet 1.0.5), its walk through a control's fields
    (one never sent whole: no snapshots) reading only those that can hold something, as a list
    (see `_configure_dataclass`); a kept control and what is inside it are left out (patch 8)."""
    found: list[Any] = []
    _removed_into(self, found, item, recurse, self.__dict__.get("_retained"))
    return found


def _removed_into(self: Any, found: list[Any], item: Any, recurse: bool, retained: Any) -> None:
    if retained and id(item) in retained:
        return
    if isinstance(item, (dict, list)):
        for v in item.values() if isinstance(item, dict) else item:
            _removed_into(self, found, v, recurse, retained)
        return
    if not (self.control_cls and isinstance(item, self.control_cls)):
        return
    if hasattr(item, "__prev_lists"):
        for snapshots in ("__prev_lists", "__prev_dicts", "__prev_classes"):
            for held in getattr(item, snapshots, {}).values():
                _removed_into(self, found, held, recurse, retained)
    elif recurse:
        for value in _walked(item):
            _removed_into(self, found, value, recurse, retained)
    found.append(item)


# -- 12. an event's payload type, found once per control class and event ---------------------------


def _once_per_class(original: Callable[[Any, str], Any], caller_globals: dict[str, Any]) -> Callable[[Any, str], Any]:
    """Flet's `get_event_field_type`, which `BaseControl._trigger_event` calls for every event:
    it merges the annotations of the control's whole class hierarchy, copies two module
    namespaces and evaluates the handler's type hint (~0.2 ms an event, ~2 % of the server's
    time at ten tables). The answer depends on the control's class and the field alone, so it
    is kept per (class, field). Made with `caller_globals` (the module that calls it) as its
    globals: Flet's function resolves names in its caller's frame, which is this one."""
    found: dict[tuple[type, str], Any] = {}

    def get_event_field_type(control: Any, field_name: str) -> Any:
        key = (type(control), field_name)
        if key not in found:
            found[key] = original(control, field_name)
        return found[key]

    import types

    return types.FunctionType(get_event_field_type.__code__, caller_globals, "get_event_field_type", None, get_event_field_type.__closure__)


# -- 13. a control built without a call per field it leaves at its default -------------------------


#: the dataclass-made `__init__` of each control class `_fast_inits` replaced (for the tests)
ORIGINAL_INITS: dict[type, Callable[..., None]] = {}


def _is_dataclass_init(cls: type) -> bool:
    """Whether `cls.__init__` is the one `dataclasses` wrote for `cls` itself (not inherited, not
    written by hand): only that one is written again here."""
    init = cls.__dict__.get("__init__")
    if init is None or getattr(init, "__wrapped__", None) is not None:  # (`_fast_init`'s own)
        return False
    return getattr(init, "__qualname__", "") == f"{cls.__qualname__}.__init__" and init.__code__.co_filename == "<string>"


def _fast_init(cls: type) -> Callable[..., None]:
    """The `__init__` `dataclasses` writes for a control class, except that a `Prop` field left at
    its default (the very default object: `is`, what an argument not given holds) is not set:
    Flet's `Prop.__set__` returns at once for it during construction (it stores only values
    other than the default), so the control ends the same, without ~60 descriptor calls. Same
    signature, same order of assignments, the same `__post_init__` call with the InitVars."""
    import dataclasses
    import inspect

    fields = cls.__dataclass_fields__  # type: ignore[attr-defined]
    # a Prop whose default a subclass overrides stores that default: always set, as Flet does
    skipped_at_default = set(getattr(cls, "_prop_defaults", {})) - set(getattr(cls, "_override_props", {}))
    namespace: dict[str, Any] = {"MISSING": dataclasses.MISSING}
    params: list[str] = []
    keyword_only = False
    for parameter in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        name = parameter.name
        if parameter.kind is parameter.KEYWORD_ONLY and not keyword_only:
            params.append("*")
            keyword_only = True
        field = fields[name]
        if field.default_factory is not dataclasses.MISSING:
            params.append(f"{name}=MISSING")
        elif field.default is not dataclasses.MISSING:
            namespace[f"_d_{name}"] = field.default
            params.append(f"{name}=_d_{name}")
        else:
            params.append(name)
    body: list[str] = []
    init_vars: list[str] = []
    for name, field in fields.items():
        if field._field_type is dataclasses._FIELD_INITVAR:  # type: ignore[attr-defined]
            init_vars.append(name)
        elif field._field_type is not dataclasses._FIELD:  # type: ignore[attr-defined]
            continue  # a ClassVar
        elif field.default_factory is not dataclasses.MISSING:
            namespace[f"_f_{name}"] = field.default_factory
            body.append(f"self.{name} = _f_{name}()" if not field.init else f"self.{name} = _f_{name}() if {name} is MISSING else {name}")
        elif not field.init:
            if field.default is not dataclasses.MISSING:
                namespace[f"_d_{name}"] = field.default
                body.append(f"self.{name} = _d_{name}")
        elif name in skipped_at_default and field.default is not dataclasses.MISSING:
            body.append(f"if {name} is not _d_{name}: self.{name} = {name}")
        else:
            body.append(f"self.{name} = {name}")
    if hasattr(cls, "__post_init__"):
        body.append(f"self.__post_init__({', '.join(init_vars)})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    exec(source, namespace)  # as dataclasses writes its __init__
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__signature__ = inspect.signature(cls.__init__)  # type: ignore[attr-defined]
    init.__wrapped__ = cls.__init__  # type: ignore[attr-defined]
    return init


def _fast_inits() -> int:
    """Every control class of Flet's with a dataclass-made `__init__` gets `_fast_init`'s. The
    number replaced."""
    from flet.controls.base_control import BaseControl

    pending, seen = [BaseControl], set()
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls in seen or not cls.__module__.startswith("flet") or not _is_dataclass_init(cls):
            continue
        seen.add(cls)
        ORIGINAL_INITS[cls] = cls.__init__  # type: ignore[misc]
        cls.__init__ = _fast_init(cls)  # type: ignore[misc]
    return len(ORIGINAL_INITS)


def _fast_inits_for_lazy_names(original: Callable[[str], Any], then: Callable[[], Any] | None = None) -> Callable[[str], Any]:
    """`flet.__getattr__`, which imports a control's module the first time `ft.<Name>` is read:
    the classes it brings get `_fast_init`'s too (those loaded before `apply` got theirs then),
    and then `then()` runs (patch 14 lays them out)."""
    from flet.controls.base_control import BaseControl

    def __getattr__(name: str) -> Any:
        value = original(name)
        if isinstance(value, type) and issubclass(value, BaseControl):
            _fast_inits()
            if then is not None:
                then()
        return value

    __getattr__.__wrapped__ = original  # type: ignore[attr-defined]
    return __getattr__
