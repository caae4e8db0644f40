"""EMF's runtime Ecore metamodel, as EMF Compare 3.5.3's ``EcoreWeightProvider`` weighs it.

pyecore's own Ecore metamodel differs from EMF's (defaults of ``resolveProxies`` and ``serializable``,
derived and transient flags, feature order, extra features), so the engine never reads pyecore's
meta-level: this table is EMF 2.29's ``EcorePackage`` (dumped from the Debian EMF jar) reduced to what
the match engine looks at. Feature order is EMF's ``eAllReferences`` / ``eAllAttributes`` order, which is
the order EMF Compare's diff visits features, and therefore the order in which the distance is summed.
"""

from __future__ import annotations

from dataclasses import dataclass

ECORE_NS_URI = "http://www.eclipse.org/emf/2002/Ecore"

# AbstractWeightProvider's constants.
SMALL = 5
SIGNIFICANT = 20
MAJOR = 150
MASSIVE = 350
UNLIKELY_TO_MATCH = 1000

# EcoreWeightProvider.getWeight: (SIGNIFICANT for ENamedElement.name, else SMALL) x 20 for attributes,
# x 10 for references; derived/transient features and containment/container references weigh 0.
NAME_WEIGHT = SIGNIFICANT * 20
ATTRIBUTE_WEIGHT = SMALL * 20
REFERENCE_WEIGHT = SMALL * 10

# EditionDistance.thresholds, indexed by the number of set weighted features (>= 4 -> 0.465).
THRESHOLD_RATIOS = (0.0, 0.6, 0.6, 0.55, 0.465)


@dataclass(frozen=True)
class MetaAttribute:
    """A weighted, single-valued attribute (every weighted Ecore attribute is single-valued)."""

    name: str
    weight: int


@dataclass(frozen=True)
class MetaReference:
    """A weighted non-containment reference.

    ``resolving`` tells whether EMF Compare sees resolved values: ``ReferenceUtil.getAsList`` iterates
    ``eSuperTypes`` and ``eExceptions`` through the resolving list, every other feature through
    ``basicList``/``basicGet``, so cross-resource values of those stay unresolved proxies.
    """

    name: str
    many: bool
    resolving: bool = False
    weight: int = REFERENCE_WEIGHT


@dataclass(frozen=True)
class Containment:
    """A containment feature. ``key`` identifies the EMF feature object (declaring class + name):
    ``EClassifier.eTypeParameters`` and ``EOperation.eTypeParameters`` are different features."""

    key: str
    name: str
    many: bool


@dataclass(frozen=True)
class MetaClass:
    name: str
    references: tuple[MetaReference, ...]
    attributes: tuple[MetaAttribute, ...]
    containments: tuple[Containment, ...]
    parent_weight: int
    containing_feature_weight: int

    @property
    def type_key(self) -> str:
        """``ByTypeIndex.eClassKey``: the per-metaclass index key."""
        return f"{ECORE_NS_URI}:{self.name}"


def _attrs(*names: str) -> tuple[MetaAttribute, ...]:
    return tuple(MetaAttribute(n, NAME_WEIGHT if n == "name" else ATTRIBUTE_WEIGHT) for n in names)


_ANNOTATIONS = Containment("EModelElement.eAnnotations", "eAnnotations", True)
_GENERIC_TYPE = Containment("ETypedElement.eGenericType", "eGenericType", False)
_CLASSIFIER_TYPE_PARAMETERS = Containment("EClassifier.eTypeParameters", "eTypeParameters", True)

_TYPED = ("name", "ordered", "unique", "lowerBound", "upperBound")
_STRUCTURAL = _TYPED + ("changeable", "volatile", "transient", "defaultValueLiteral", "unsettable", "derived")
_ETYPE = MetaReference("eType", many=False)
_CLASSIFIER_ATTRS = ("name", "instanceClassName", "instanceTypeName")

# Parent/containing-feature weights follow EcoreWeightProvider: structural features 350/150,
# annotations 1000/150, operations 150/150, parameters and map entries 1000/20, the rest 20/20.
METACLASSES: dict[str, MetaClass] = {
    mc.name: mc
    for mc in (
        MetaClass(
            "EPackage",
            (),
            _attrs("name", "nsURI", "nsPrefix"),
            (
                _ANNOTATIONS,
                Containment("EPackage.eClassifiers", "eClassifiers", True),
                Containment("EPackage.eSubpackages", "eSubpackages", True),
            ),
            SIGNIFICANT,
            SIGNIFICANT,
        ),
        MetaClass(
            "EClass",
            (MetaReference("eSuperTypes", many=True, resolving=True),),
            _attrs(*_CLASSIFIER_ATTRS, "abstract", "interface"),
            (
                _ANNOTATIONS,
                _CLASSIFIER_TYPE_PARAMETERS,
                Containment("EClass.eOperations", "eOperations", True),
                Containment("EClass.eStructuralFeatures", "eStructuralFeatures", True),
                Containment("EClass.eGenericSuperTypes", "eGenericSuperTypes", True),
            ),
            SIGNIFICANT,
            SIGNIFICANT,
        ),
        MetaClass(
            "EDataType",
            (),
            _attrs(*_CLASSIFIER_ATTRS, "serializable"),
            (_ANNOTATIONS, _CLASSIFIER_TYPE_PARAMETERS),
            SIGNIFICANT,
            SIGNIFICANT,
        ),
        MetaClass(
            "EEnum",
            (),
            _attrs(*_CLASSIFIER_ATTRS, "serializable"),
            (_ANNOTATIONS, _CLASSIFIER_TYPE_PARAMETERS, Containment("EEnum.eLiterals", "eLiterals", True)),
            SIGNIFICANT,
            SIGNIFICANT,
        ),
        MetaClass(
            "EEnumLiteral", (), _attrs("name", "value", "literal"), (_ANNOTATIONS,), SIGNIFICANT, SIGNIFICANT
        ),
        MetaClass(
            "EAttribute",
            (_ETYPE,),
            _attrs(*_STRUCTURAL, "iD"),
            (_ANNOTATIONS, _GENERIC_TYPE),
            MASSIVE,
            MAJOR,
        ),
        MetaClass(
            "EReference",
            (_ETYPE, MetaReference("eOpposite", many=False), MetaReference("eKeys", many=True)),
            _attrs(*_STRUCTURAL, "containment", "resolveProxies"),
            (_ANNOTATIONS, _GENERIC_TYPE),
            MASSIVE,
            MAJOR,
        ),
        MetaClass(
            "EOperation",
            (_ETYPE, MetaReference("eExceptions", many=True, resolving=True)),
            _attrs(*_TYPED),
            (
                _ANNOTATIONS,
                _GENERIC_TYPE,
                Containment("EOperation.eTypeParameters", "eTypeParameters", True),
                Containment("EOperation.eParameters", "eParameters", True),
                Containment("EOperation.eGenericExceptions", "eGenericExceptions", True),
            ),
            MAJOR,
            MAJOR,
        ),
        MetaClass(
            "EParameter",
            (_ETYPE,),
            _attrs(*_TYPED),
            (_ANNOTATIONS, _GENERIC_TYPE),
            UNLIKELY_TO_MATCH,
            SIGNIFICANT,
        ),
        MetaClass(
            "EAnnotation",
            (MetaReference("references", many=True),),
            _attrs("source"),
            (
                _ANNOTATIONS,
                Containment("EAnnotation.details", "details", True),
                Containment("EAnnotation.contents", "contents", True),
            ),
            UNLIKELY_TO_MATCH,
            MAJOR,
        ),
        MetaClass("EStringToStringMapEntry", (), _attrs("key", "value"), (), UNLIKELY_TO_MATCH, SIGNIFICANT),
        MetaClass(
            "EGenericType",
            (MetaReference("eTypeParameter", many=False), MetaReference("eClassifier", many=False)),
            (),
            (
                Containment("EGenericType.eUpperBound", "eUpperBound", False),
                Containment("EGenericType.eTypeArguments", "eTypeArguments", True),
                Containment("EGenericType.eLowerBound", "eLowerBound", False),
            ),
            SIGNIFICANT,
            SIGNIFICANT,
        ),
        MetaClass(
            "ETypeParameter",
            (),
            _attrs("name"),
            (_ANNOTATIONS, Containment("ETypeParameter.eBounds", "eBounds", True)),
            SIGNIFICANT,
            SIGNIFICANT,
        ),
    )
}

# The containing feature weight of roots: EcoreWeightProvider.getContainingFeatureWeight(a) depends
# only on a's metaclass, so roots pay it in the threshold like every other object.

# EMF's runtime EcorePackage.eClassifiers order (classes in ID order, then data types). Built-in types
# resolved across resources (only eSuperTypes/eExceptions are resolved) sit at these positions, so
# their EMF Compare location is ["@eClassifiers.<index>", "0"].
ECORE_CLASSIFIER_ORDER: tuple[str, ...] = (
    "EAttribute", "EAnnotation", "EClass", "EClassifier", "EDataType", "EEnum", "EEnumLiteral", "EFactory",
    "EModelElement", "ENamedElement", "EObject", "EOperation", "EPackage", "EParameter", "EReference",
    "EStructuralFeature", "ETypedElement", "EStringToStringMapEntry", "EGenericType", "ETypeParameter",
    "EBigDecimal", "EBigInteger", "EBoolean", "EBooleanObject", "EByte", "EByteArray", "EByteObject", "EChar",
    "ECharacterObject", "EDate", "EDiagnosticChain", "EDouble", "EDoubleObject", "EEList", "EEnumerator",
    "EFeatureMap", "EFeatureMapEntry", "EFloat", "EFloatObject", "EInt", "EIntegerObject", "EJavaClass",
    "EJavaObject", "ELong", "ELongObject", "EMap", "EResource", "EResourceSet", "EShort", "EShortObject",
    "EString", "ETreeIterator", "EInvocationTargetException",
)  # fmt: skip
ECORE_CLASSIFIER_INDEX: dict[str, int] = {name: i for i, name in enumerate(ECORE_CLASSIFIER_ORDER)}
