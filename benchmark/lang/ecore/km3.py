"""KM3 text to pyecore objects, with the structure the KM3-to-Ecore tooling writes.

KM3 files are parsed by the grammar in ``km3.lark`` into a small syntax tree (:func:`parse_km3`), whose
names are then resolved and turned into Ecore (:func:`load_km3_text`) following the ATL Zoo's
``KM32EMF.atl`` applied to what the TCS KM3 parser produces:

* ``package`` -> ``EPackage`` (``nsURI``/``nsPrefix`` from ``-- @nsURI ...``/``-- @nsPrefix ...`` comments
  just before it, else unset); classifiers go to ``eClassifiers``, nested packages to ``eSubpackages``;
* ``datatype`` -> ``EDataType`` without instance class; ``enumeration`` -> ``EEnum`` whose literals have
  ``value`` = 1-based position (OCL's ``indexOf``);
* ``class`` -> ``EClass`` (``abstract``, ``eSuperTypes``); ``operation`` -> ``EOperation``/``EParameter``;
* ``attribute`` typed by a datatype or enumeration -> ``EAttribute`` with ``ordered`` and ``unique`` as
  written (both false unless the keyword is there); typed by a class -> a containment ``EReference``;
* ``reference`` -> ``EReference`` (``containment`` from ``container``, ``ordered`` as written, ``unique``
  left at Ecore's default true, ``eOpposite`` from ``oppositeOf``);
* no multiplicity means ``[1-1]``; ``[*]`` is ``0..-1``, ``[n-*]`` is ``n..-1``, ``[n-m]`` is ``n..m``.

Type names are looked up over the whole file, as TCS does (classifiers are added to the metamodel's
context): a simple name defined in several packages prefers the referencing class's own package, then
enclosing packages, and is an error otherwise; a name declared twice in one package means its first
declaration (as EMF's name lookup does); ``A::B`` names a classifier by package path. ``oppositeOf``
names a reference of the referenced class or of one of its supertypes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from pyecore.ecore import (
    EAttribute,
    EClass,
    EClassifier,
    EDataType,
    EEnum,
    EEnumLiteral,
    EOperation,
    EPackage,
    EParameter,
    EReference,
)

from benchmark.lang.ecore.ecore_io import apply_python_types
from benchmark.lang.ecore.errors import MetamodelError

UNBOUNDED = -1
_GRAMMAR = Path(__file__).with_name("km3.lark")
_METADATA_KEYS = ("nsURI", "nsPrefix")


# ----------------------------------------------------------------------------------------- syntax tree


@dataclass(frozen=True)
class TypeRef:
    path: tuple[str, ...]
    line: int
    column: int

    @property
    def text(self) -> str:
        return "::".join(self.path)


@dataclass(frozen=True)
class Km3DataType:
    name: str
    line: int
    column: int


@dataclass(frozen=True)
class Km3Enumeration:
    name: str
    literals: tuple[str, ...]
    line: int
    column: int


@dataclass(frozen=True)
class Km3Feature:
    """An ``attribute`` or ``reference`` as written; which Ecore class it becomes depends on its type."""

    keyword: str  # "attribute" | "reference"
    name: str
    lower: int
    upper: int
    ordered: bool
    unique: bool
    container: bool
    type: TypeRef
    opposite: str | None
    subsets: tuple[str, ...]
    line: int
    column: int


@dataclass(frozen=True)
class Km3Operation:
    name: str
    parameters: tuple[tuple[str, TypeRef], ...]
    type: TypeRef | None
    line: int
    column: int


@dataclass(frozen=True)
class Km3Class:
    name: str
    abstract: bool
    supertypes: tuple[TypeRef, ...]
    features: tuple[Km3Feature, ...]
    operations: tuple[Km3Operation, ...]
    line: int
    column: int


Km3Classifier = Km3DataType | Km3Enumeration | Km3Class


@dataclass(frozen=True)
class Km3Package:
    name: str
    classifiers: tuple[Km3Classifier, ...]
    subpackages: tuple[Km3Package, ...]
    line: int
    column: int
    start: int  # character offset of the ``package`` keyword, to find the comments just before it
    metadata: dict[str, str] = field(default_factory=dict, compare=False)


# ---------------------------------------------------------------------------------------------- parsing

_comments: ContextVar[list[Token]] = ContextVar("km3_comments")


def _collect_comment(token: Token) -> Token:
    sink = _comments.get(None)
    if sink is not None:
        sink.append(token)
    return token


@cache
def _parser() -> Lark:
    return Lark(
        _GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
        lexer_callbacks={"COMMENT": _collect_comment},
    )


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def _unquote(text: str) -> str:
    """A ``"quoted"`` KM3 name without its quotes, escapes decoded as TCS's lexer does (octal too)."""
    body = text[1:-1]
    out: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char != "\\" or index + 1 >= len(body):
            out.append(char)
            index += 1
            continue
        nxt = body[index + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            index += 2
            continue
        digits = ""
        limit = 3 if nxt in "0123" else 2
        while len(digits) < limit and index + 1 + len(digits) < len(body):
            candidate = body[index + 1 + len(digits)]
            if candidate not in "01234567":
                break
            digits += candidate
        if digits:
            out.append(chr(int(digits, 8)))
            index += 1 + len(digits)
        else:
            out.append(nxt)
            index += 2
    return "".join(out)


@dataclass(frozen=True)
class _Multiplicity:
    lower: int
    upper: int


@dataclass(frozen=True)
class _Modifier:
    keyword: str


@dataclass(frozen=True)
class _Opposite:
    name: str


@dataclass(frozen=True)
class _Subsets:
    names: tuple[str, ...]


@dataclass(frozen=True)
class _Parameters:
    items: tuple[tuple[str, TypeRef], ...]


@dataclass(frozen=True)
class _ResultType:
    type: TypeRef


@v_args(meta=True)
class _ToSyntax(Transformer):  # type: ignore[type-arg]
    """Lark tree -> the frozen syntax tree above (positions kept for later errors)."""

    def name(self, meta: object, children: list[Token]) -> Token:
        token = children[0]
        if token.type == "QUOTED_NAME":
            return token.update(value=_unquote(str(token)))
        return token

    def type_ref(self, meta: object, children: list[Token]) -> TypeRef:
        first = children[0]
        return TypeRef(tuple(str(t) for t in children), first.line or 0, first.column or 0)

    def many(self, meta: object, children: list[Token]) -> _Multiplicity:
        return _Multiplicity(0, UNBOUNDED)

    def at_least(self, meta: object, children: list[Token]) -> _Multiplicity:
        return _Multiplicity(int(children[0]), UNBOUNDED)

    def between(self, meta: object, children: list[Token]) -> _Multiplicity:
        return _Multiplicity(int(children[0]), int(children[1]))

    def attribute_modifier(self, meta: object, children: list[Token]) -> _Modifier:
        return _Modifier(str(children[0]))

    reference_modifier = attribute_modifier

    def supertypes(self, meta: object, children: list[TypeRef]) -> tuple[TypeRef, ...]:
        return tuple(children)

    def subsets(self, meta: object, children: list[Token]) -> _Subsets:
        return _Subsets(tuple(str(t) for t in children))

    def opposite(self, meta: object, children: list[Token]) -> _Opposite:
        return _Opposite(str(children[0]))

    def _feature(self, keyword: str, children: list[object]) -> Km3Feature:
        name = children[0]
        assert isinstance(name, Token)
        multiplicity = _Multiplicity(1, 1)
        modifiers: set[str] = set()
        subsets: tuple[str, ...] = ()
        opposite: str | None = None
        type_ref: TypeRef | None = None
        for child in children[1:]:
            if isinstance(child, _Multiplicity):
                multiplicity = child
            elif isinstance(child, _Modifier):
                modifiers.add(child.keyword)
            elif isinstance(child, _Subsets):
                subsets = child.names
            elif isinstance(child, TypeRef):
                type_ref = child
            elif isinstance(child, _Opposite):
                opposite = child.name
        assert type_ref is not None
        return Km3Feature(
            keyword=keyword,
            name=str(name),
            lower=multiplicity.lower,
            upper=multiplicity.upper,
            ordered="ordered" in modifiers,
            unique="unique" in modifiers,
            container="container" in modifiers,
            type=type_ref,
            opposite=opposite,
            subsets=subsets,
            line=name.line or 0,
            column=name.column or 0,
        )

    def attribute(self, meta: object, children: list[object]) -> Km3Feature:
        return self._feature("attribute", children)

    def reference(self, meta: object, children: list[object]) -> Km3Feature:
        return self._feature("reference", children)

    def parameter(self, meta: object, children: list[object]) -> tuple[str, TypeRef]:
        name, type_ref = children
        assert isinstance(type_ref, TypeRef)
        return str(name), type_ref

    def parameters(self, meta: object, children: list[tuple[str, TypeRef]]) -> _Parameters:
        return _Parameters(tuple(children))

    def result_type(self, meta: object, children: list[TypeRef]) -> _ResultType:
        return _ResultType(children[0])

    def operation(self, meta: object, children: list[object]) -> Km3Operation:
        name = children[0]
        assert isinstance(name, Token)
        parameters: tuple[tuple[str, TypeRef], ...] = ()
        result: TypeRef | None = None
        for child in children[1:]:
            if isinstance(child, _Parameters):
                parameters = child.items
            elif isinstance(child, _ResultType):
                result = child.type
        return Km3Operation(str(name), parameters, result, name.line or 0, name.column or 0)

    def datatype(self, meta: object, children: list[Token]) -> Km3DataType:
        name = children[0]
        return Km3DataType(str(name), name.line or 0, name.column or 0)

    def enum_literal(self, meta: object, children: list[Token]) -> str:
        return str(children[0])

    def enumeration(self, meta: object, children: list[object]) -> Km3Enumeration:
        name = children[0]
        assert isinstance(name, Token)
        literals = tuple(str(c) for c in children[1:])
        return Km3Enumeration(str(name), literals, name.line or 0, name.column or 0)

    def class_def(self, meta: object, children: list[object]) -> Km3Class:
        abstract = False
        if isinstance(children[0], Token) and children[0].type == "ABSTRACT":
            abstract = True
            children = children[1:]
        name = children[0]
        assert isinstance(name, Token)
        supertypes: tuple[TypeRef, ...] = ()
        features: list[Km3Feature] = []
        operations: list[Km3Operation] = []
        for child in children[1:]:
            if isinstance(child, Km3Feature):
                features.append(child)
            elif isinstance(child, Km3Operation):
                operations.append(child)
            elif isinstance(child, tuple):
                supertypes = child
        return Km3Class(
            str(name),
            abstract,
            supertypes,
            tuple(features),
            tuple(operations),
            name.line or 0,
            name.column or 0,
        )

    def package(self, meta: object, children: list[object]) -> Km3Package:
        name = children[0]
        assert isinstance(name, Token)
        classifiers = tuple(c for c in children[1:] if not isinstance(c, Km3Package))
        subpackages = tuple(c for c in children[1:] if isinstance(c, Km3Package))
        return Km3Package(
            str(name),
            classifiers,  # type: ignore[arg-type]
            subpackages,
            name.line or 0,
            name.column or 0,
            start=getattr(meta, "start_pos", 0),
        )

    def start(self, meta: object, children: list[Km3Package]) -> tuple[Km3Package, ...]:
        return tuple(children)


def _describe_terminal(parser: Lark, name: str) -> str:
    if name == "$END":
        return "end of file"
    if name in ("SIMPLE_NAME", "QUOTED_NAME"):
        return "a name"
    if name == "INT":
        return "a number"
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    return repr(pattern.value) if pattern.type == "str" else name


def _syntax_error(error: UnexpectedInput, parser: Lark, text: str, file: str) -> MetamodelError:
    expected: set[str] = set()
    if isinstance(error, UnexpectedToken):
        expected = set(error.expected)
        interactive = getattr(error, "interactive_parser", None)
        if interactive is not None:
            # LALR merges look-aheads of states reached from different contexts; simulating the
            # reductions gives exactly the tokens acceptable here.
            expected = set(interactive.accepts()) or expected
        found = "end of file" if error.token.type == "$END" else repr(str(error.token))
    elif isinstance(error, UnexpectedEOF):
        expected = set(error.expected)
        found = "end of file"
    elif isinstance(error, UnexpectedCharacters):
        expected = set(error.allowed or ())
        found = f"character {error.char!r}"
    else:  # pragma: no cover - lark's UnexpectedInput has only these three concrete kinds
        found = "input"
    wanted = sorted({_describe_terminal(parser, name) for name in expected})
    message = f"KM3 syntax error: unexpected {found}"
    if wanted:
        message += f"; expected {', '.join(wanted)}"
    line = getattr(error, "line", None)
    column = getattr(error, "column", None)
    if found == "end of file":  # lark points at the last token; the end of the text is more helpful
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
    return MetamodelError(
        message,
        file=file,
        line=line if isinstance(line, int) and line > 0 else None,
        column=column if isinstance(column, int) and column > 0 else None,
    )


def _preceding_comments(text: str, start: int, comments: list[Token]) -> list[str]:
    """Comments between the previous token and ``start`` (TCS's ``commentsBefore``), in file order."""
    # keyed by where the comment's text ends without trailing blanks ("-- " is a comment too)
    by_end = {int(c.start_pos or 0) + len(str(c).rstrip()): c for c in comments}
    found: list[str] = []
    position = start
    while position > 0:
        while position > 0 and text[position - 1].isspace():
            position -= 1
        comment = by_end.get(position)
        if comment is None:
            break
        found.append(str(comment))
        position = int(comment.start_pos or 0)
    return list(reversed(found))


def _attach_metadata(packages: tuple[Km3Package, ...], text: str, comments: list[Token]) -> None:
    for package in packages:
        for comment in _preceding_comments(text, package.start, comments):
            for key in _METADATA_KEYS:
                prefix = f"-- @{key} "
                if comment.startswith(prefix) and key not in package.metadata:
                    package.metadata[key] = comment[len(prefix) :].strip()
        _attach_metadata(package.subpackages, text, comments)


def parse_km3(text: str, file: str = "<km3>") -> tuple[Km3Package, ...]:
    """The top-level packages of a KM3 text; syntax errors as :class:`MetamodelError` with line/column."""
    parser = _parser()
    comments: list[Token] = []
    reset = _comments.set(comments)
    try:
        tree = parser.parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, parser, text, file) from None
    finally:
        _comments.reset(reset)
    packages = _ToSyntax().transform(tree)
    assert isinstance(packages, tuple)
    _attach_metadata(packages, text, comments)
    return packages


# ------------------------------------------------------------------------------------------ resolution


@dataclass
class _Scope:
    """Every classifier of the file, by simple name, with the package path it sits in."""

    by_name: dict[str, list[tuple[tuple[str, ...], EClassifier]]] = field(default_factory=dict)
    by_path: dict[tuple[str, ...], EClassifier] = field(default_factory=dict)

    def add(self, package_path: tuple[str, ...], classifier: EClassifier) -> None:
        self.by_name.setdefault(classifier.name, []).append((package_path, classifier))
        self.by_path.setdefault((*package_path, classifier.name), classifier)

    def resolve(self, ref: TypeRef, package_path: tuple[str, ...], file: str) -> EClassifier:
        if len(ref.path) > 1:
            for depth in range(len(package_path), -1, -1):  # relative to enclosing packages, then absolute
                found = self.by_path.get((*package_path[:depth], *ref.path))
                if found is not None:
                    return found
            raise MetamodelError(f"unknown type {ref.text!r}", file=file, line=ref.line, column=ref.column)
        candidates = self.by_name.get(ref.path[0], [])
        if not candidates:
            raise MetamodelError(f"unknown type {ref.text!r}", file=file, line=ref.line, column=ref.column)
        packages = {path for path, _ in candidates}
        if len(packages) == 1:
            # One package (possibly declaring the name twice, as some zoo files do): the first
            # declaration wins, as EMF's name-based lookup (getEClassifier, "/1/Name" fragments) does.
            return candidates[0][1]
        for depth in range(len(package_path), -1, -1):
            if package_path[:depth] in packages:
                return next(c for path, c in candidates if path == package_path[:depth])
        qualified = ", ".join(sorted({"::".join((*path, c.name)) for path, c in candidates}))
        raise MetamodelError(
            f"type name {ref.text!r} is ambiguous; qualify it as one of: {qualified}",
            file=file,
            line=ref.line,
            column=ref.column,
        )


def _walk(
    packages: tuple[Km3Package, ...], parent: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], Km3Package]]:
    for package in packages:
        path = (*parent, package.name)
        yield path, package
        yield from _walk(package.subpackages, path)


def _all_supertypes(eclass: EClass) -> Iterator[EClass]:
    seen: set[int] = set()
    queue = list(eclass.eSuperTypes)
    while queue:
        current = queue.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        queue.extend(current.eSuperTypes)


def _find_opposite(target: EClass, name: str) -> EReference | None:
    for eclass in (target, *_all_supertypes(target)):
        for feature in eclass.eStructuralFeatures:
            if feature.name == name and isinstance(feature, EReference):
                return feature
    return None


def build_ecore(packages: tuple[Km3Package, ...], file: str = "<km3>") -> tuple[EPackage, ...]:
    """Ecore packages for a parsed KM3 file (see the module docstring for the mapping)."""
    scope = _Scope()
    epackages: dict[tuple[str, ...], EPackage] = {}
    classes: list[tuple[tuple[str, ...], Km3Class, EClass]] = []

    roots: list[EPackage] = []
    for path, package in _walk(packages):
        epackage = EPackage(package.name)
        if "nsURI" in package.metadata:
            epackage.nsURI = package.metadata["nsURI"]
        if "nsPrefix" in package.metadata:
            epackage.nsPrefix = package.metadata["nsPrefix"]
        epackages[path] = epackage
        if len(path) == 1:
            roots.append(epackage)
        else:
            epackages[path[:-1]].eSubpackages.append(epackage)
        for classifier in package.classifiers:
            eclassifier: EClassifier
            if isinstance(classifier, Km3DataType):
                eclassifier = EDataType(classifier.name)
            elif isinstance(classifier, Km3Enumeration):
                eclassifier = EEnum(classifier.name)
                for index, literal in enumerate(classifier.literals, start=1):
                    eclassifier.eLiterals.append(EEnumLiteral(literal, value=index))
            else:
                eclassifier = EClass(classifier.name, abstract=classifier.abstract)
                classes.append((path, classifier, eclassifier))
            epackage.eClassifiers.append(eclassifier)
            scope.add(path, eclassifier)

    def resolve(ref: TypeRef, path: tuple[str, ...]) -> EClassifier:
        return scope.resolve(ref, path, file)

    for path, km3_class, eclass in classes:
        for ref in km3_class.supertypes:
            supertype = resolve(ref, path)
            if not isinstance(supertype, EClass):
                raise MetamodelError(
                    f"class {km3_class.name} extends {ref.text}, which is not a class",
                    file=file,
                    line=ref.line,
                    column=ref.column,
                )
            if supertype is eclass or any(s is eclass for s in _all_supertypes(supertype)):
                raise MetamodelError(
                    f"class {km3_class.name} extends {ref.text}, which inherits from {km3_class.name} "
                    "(an inheritance cycle)",
                    file=file,
                    line=ref.line,
                    column=ref.column,
                )
            eclass.eSuperTypes.append(supertype)

    pending_opposites: list[tuple[Km3Feature, EReference]] = []
    for path, km3_class, eclass in classes:
        for feature in km3_class.features:
            etype = resolve(feature.type, path)
            if feature.keyword == "attribute" and isinstance(etype, EDataType):
                efeature: EAttribute | EReference = EAttribute(
                    feature.name, ordered=feature.ordered, unique=feature.unique
                )
            else:
                containment = feature.container or feature.keyword == "attribute"
                efeature = EReference(feature.name, ordered=feature.ordered, containment=containment)
                if feature.opposite is not None:
                    pending_opposites.append((feature, efeature))
            efeature.eType = etype  # after construction: EReference's constructor rewrites datatypes
            efeature.lowerBound = feature.lower
            efeature.upperBound = feature.upper
            eclass.eStructuralFeatures.append(efeature)
        for operation in km3_class.operations:
            eoperation = EOperation(operation.name)
            if operation.type is not None:
                eoperation.eType = resolve(operation.type, path)
            # pyecore compiles a Python method when an operation is added to a class; adding the
            # parameters afterwards keeps parameter names that are not Python identifiers harmless.
            eclass.eOperations.append(eoperation)
            for name, type_ref in operation.parameters:
                eoperation.eParameters.append(EParameter(name, eType=resolve(type_ref, path)))

    for feature, ereference in pending_opposites:
        target = ereference.eType
        assert feature.opposite is not None
        opposite = _find_opposite(target, feature.opposite) if isinstance(target, EClass) else None
        if opposite is None:
            raise MetamodelError(
                f"reference {feature.name}: {feature.type.text} has no reference {feature.opposite!r} "
                "to be its opposite",
                file=file,
                line=feature.line,
                column=feature.column,
            )
        ereference.eOpposite = opposite

    result = tuple(roots)
    apply_python_types(result)
    return result


def load_km3_text(text: str, file: str = "<km3>") -> tuple[EPackage, ...]:
    """Parse and resolve a KM3 text: its top-level packages as pyecore ``EPackage`` roots."""
    return build_ecore(parse_km3(text, file), file)
