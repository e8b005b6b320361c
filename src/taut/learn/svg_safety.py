"""Pictures from outside the package made safe to show: SVG by a whitelist, PNG checked.

A tile set written by a teacher may bring its own pictures; the browser shows them inline
in its pages, so an SVG must not be able to run a script, load anything from elsewhere or
expand entities. :func:`clean_svg` parses the markup with :mod:`xml.etree.ElementTree`,
refuses what is unsafe with a message naming it (``<script>``, ``<foreignObject>``,
``<iframe>``, an ``on...`` attribute, a link that does not point inside the picture, a
``url(...)`` that is not ``url(#...)``, a DOCTYPE or ENTITY) and anything not on the
whitelist of elements and attributes, then writes the picture out again from the parsed
tree alone: only whitelisted names, every value escaped, a ``viewBox`` on the root and no
size of its own (the page sizes it).

A PNG is read only as far as its signature and header (:func:`check_png`) and shown through
a ``data:`` URI inside a generated SVG (:func:`png_svg`), never linked.
"""

from __future__ import annotations

import base64
import hashlib
import re
import struct
import xml.etree.ElementTree as ET
from html import escape

from taut.core.errors import TautError

#: The SVG and XLink namespaces, as ElementTree writes them in names.
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
#: Namespaces of drawing programs' own notes: dropped, they draw nothing.
EDITOR_NS = frozenset(
    {
        "http://www.inkscape.org/namespaces/inkscape",
        "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
        "http://purl.org/dc/elements/1.1/",
        "http://creativecommons.org/ns#",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "http://ns.adobe.com/AdobeIllustrator/10.0/",
    }
)

#: Elements a picture may use.
ELEMENTS = frozenset(
    {
        "svg", "g", "defs", "title", "desc", "path", "rect", "circle", "ellipse", "line",
        "polyline", "polygon", "text", "tspan", "use", "symbol", "linearGradient",
        "radialGradient", "stop", "clipPath", "mask", "pattern", "marker",
    }
)  # fmt: skip
#: Elements dropped with everything in them (they draw nothing).
DROPPED = frozenset({"metadata"})
#: Elements refused by name, with the reason.
REFUSED = {
    "script": "a script",
    "foreignObject": "foreign content (HTML inside the picture)",
    "iframe": "an embedded page",
    "style": "a style sheet (use attributes such as fill and stroke)",
    "image": "an embedded image (give a PNG file as the face's image instead)",
    "a": "a link",
    "animate": "an animation",
    "set": "an animation",
    "animateTransform": "an animation",
    "animateMotion": "an animation",
    "feImage": "an embedded image",
}
#: Attributes a picture's elements may carry (the SVG presentation attributes and the
#: geometry of the whitelisted elements).
ATTRIBUTES = frozenset(
    {
        "id", "class", "d", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry",
        "fx", "fy", "fr", "width", "height", "points", "viewBox", "preserveAspectRatio",
        "transform", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width",
        "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray",
        "stroke-dashoffset", "stroke-opacity", "opacity", "font-family", "font-size",
        "font-weight", "font-style", "text-anchor", "dominant-baseline", "letter-spacing",
        "word-spacing", "dx", "dy", "rotate", "textLength", "lengthAdjust", "baseline-shift",
        "offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform",
        "spreadMethod", "clip-path", "clip-rule", "clipPathUnits", "mask", "maskUnits",
        "maskContentUnits", "patternUnits", "patternContentUnits", "patternTransform",
        "markerWidth", "markerHeight", "refX", "refY", "orient", "markerUnits",
        "marker-start", "marker-mid", "marker-end", "href", "visibility", "display",
        "color", "vector-effect", "paint-order", "shape-rendering", "text-rendering",
        "style", "version", "xml:space", "role", "aria-label", "aria-hidden",
    }
)  # fmt: skip
#: Root attributes not copied: the page gives the picture its size, place and label.
ROOT_DROPPED = frozenset(
    {
        "width", "height", "x", "y", "id", "version", "role", "aria-label", "aria-hidden",
        "style", "class",
    }
)  # fmt: skip

#: The most markup one picture may have, and how many elements and how deep.
MAX_SVG_CHARS = 100_000
MAX_ELEMENTS = 5_000
MAX_DEPTH = 40
#: The largest PNG accepted, and its largest side in pixels.
MAX_PNG_BYTES = 256 * 1024
MAX_PNG_SIDE = 4096
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

_URL = re.compile(r"url\s*\(\s*['\"]?\s*([^)'\"\s]*)", re.I)
_URL_ID = re.compile(r"(url\s*\(\s*['\"]?\s*#)([^)'\"\s]*)", re.I)
_DANGEROUS = re.compile(
    r"javascript:|vbscript:|expression\s*\(|@import|image-set|\bsrc\s*\(|\\", re.I
)
_NUMBER = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(px)?\s*")
_DECLARATION = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.I)
_XML_DECLARATION = re.compile(r"\s*<\?xml\s[^?]*\?>")


class PictureError(TautError, ValueError):
    """A picture that cannot be shown safely: the message names what was refused."""


def _local(name: str) -> tuple[str, str]:
    """``(namespace, local name)`` of an ElementTree tag or attribute name."""
    if name.startswith("{"):
        ns, _, local = name[1:].partition("}")
        return ns, local
    return "", name


def _attribute_name(name: str) -> str | None:
    """The attribute's name as written out, None to drop it; PictureError if refused."""
    ns, local = _local(name)
    if ns in EDITOR_NS:
        return None
    if ns == XLINK_NS and local == "href":
        return "href"
    if ns == XML_NS and local == "space":
        return "xml:space"
    if local.lower().startswith("on"):
        raise PictureError(f"the event handler attribute {local!r} is not allowed")
    if ns or local not in ATTRIBUTES:
        shown = f"{{{ns}}}{local}" if ns else local
        raise PictureError(
            f"the attribute {shown!r} is not allowed (see the list of attributes a picture "
            "may use in docs/tilesets.md)"
        )
    return local


def _check_value(name: str, value: str) -> None:
    """Refuse a value that reaches outside the picture or hides script."""
    if _DANGEROUS.search(value):
        raise PictureError(f"the attribute {name!r} holds {value[:60]!r}, which is not allowed")
    if name == "href" and not value.startswith("#"):
        raise PictureError(
            f"the link {value[:60]!r} points outside the picture; only links inside it "
            "(starting with #) are allowed"
        )
    for target in _URL.findall(value):
        if not target.startswith("#"):
            raise PictureError(
                f"the attribute {name!r} refers to {target[:60]!r}; only url(#...) inside the "
                "picture is allowed"
            )


#: A name already given its picture's prefix (so that cleaning twice changes nothing).
_PREFIXED = re.compile(r"ts[0-9a-f]{8}-")


class _Writer:
    """Writes the checked tree back out, counting elements.

    Every ``id`` gets a prefix made from the picture (and every ``#id`` and ``url(#id)``
    that names it), so that pictures shown on one page never share a name, nor take one
    the page uses itself.
    """

    def __init__(self, prefix: str) -> None:
        self.parts: list[str] = []
        self.count = 0
        self.prefix = prefix

    def rename(self, name: str, value: str) -> str:
        """``value`` with its ids prefixed."""
        if name == "id":
            return value if _PREFIXED.match(value) else self.prefix + value
        if name == "href":
            return value if _PREFIXED.match(value[1:]) else "#" + self.prefix + value[1:]
        return _URL_ID.sub(
            lambda m: (
                m.group(0) if _PREFIXED.match(m.group(2)) else m.group(1) + self.prefix + m.group(2)
            ),
            value,
        )

    def element(self, el: ET.Element, depth: int) -> None:
        ns, tag = _local(el.tag) if isinstance(el.tag, str) else ("", "")
        if ns in EDITOR_NS or tag in DROPPED:
            self.text(el.tail)
            return
        if tag in REFUSED:
            raise PictureError(f"<{tag}> is not allowed in a picture: {REFUSED[tag]}")
        if ns not in ("", SVG_NS) or tag not in ELEMENTS:
            shown = f"{{{ns}}}{tag}" if ns else tag
            raise PictureError(
                f"the element <{shown}> is not allowed (allowed: {', '.join(sorted(ELEMENTS))})"
            )
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise PictureError(f"the picture has more than {MAX_ELEMENTS} elements")
        if depth > MAX_DEPTH:
            raise PictureError(f"the picture nests elements more than {MAX_DEPTH} deep")
        attrs = self.attributes(el)
        if not el.text and len(el) == 0:
            self.parts.append(f"<{tag}{attrs}/>")
        else:
            self.parts.append(f"<{tag}{attrs}>")
            self.text(el.text)
            for child in el:
                self.element(child, depth + 1)
            self.parts.append(f"</{tag}>")
        self.text(el.tail)

    def attributes(self, el: ET.Element, skip: frozenset[str] = frozenset()) -> str:
        out = []
        for raw, value in el.attrib.items():
            if raw in skip:
                continue
            name = _attribute_name(raw)
            if name is None:
                continue
            _check_value(name, value)
            value = self.rename(name, value)
            out.append(f' {name}="{escape(value, quote=True)}"')
        return "".join(out)

    def text(self, text: str | None) -> None:
        if text:
            self.parts.append(escape(text, quote=False))


def _view_box(root: ET.Element) -> str:
    """The root's viewBox, or one made from its width and height."""
    box = root.get("viewBox")
    if box is not None:
        numbers = box.replace(",", " ").split()
        try:
            values = [float(n) for n in numbers]
        except ValueError:
            values = []
        if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
            raise PictureError(f"the viewBox {box[:40]!r} is not four numbers with a positive size")
        return " ".join(numbers)
    sizes = [_NUMBER.fullmatch(root.get(k) or "") for k in ("width", "height")]
    if sizes[0] is None or sizes[1] is None:
        raise PictureError("the <svg> element needs a viewBox (or a width and height in pixels)")
    w, h = sizes[0].group(1), sizes[1].group(1)
    if float(w) <= 0 or float(h) <= 0:
        raise PictureError("the <svg> element's width and height must be positive")
    return f"0 0 {w} {h}"


def clean_svg(markup: str, label: str) -> str:
    """``markup`` checked and written out again as a safe, self-sized picture labelled
    ``label`` (its accessible name, also its ``<title>``). Raises :class:`PictureError`
    naming the first thing refused."""
    if len(markup) > MAX_SVG_CHARS:
        raise PictureError(
            f"the picture has {len(markup):,} characters; at most {MAX_SVG_CHARS:,} are allowed"
        )
    found = _DECLARATION.search(markup)
    if found:
        raise PictureError(f"a <!{found.group(1).upper()}> declaration is not allowed")
    declaration = _XML_DECLARATION.match(markup)
    if "<?" in (markup[declaration.end() :] if declaration else markup):
        raise PictureError("processing instructions (<?...?>) are not allowed")
    try:
        root = ET.fromstring(markup)
    except ET.ParseError as exc:
        raise PictureError(f"the picture is not well-formed XML: {exc}") from None
    ns, tag = _local(root.tag)
    if tag != "svg" or ns not in ("", SVG_NS):
        raise PictureError(f"a picture's outermost element must be <svg>, not <{tag}>")
    box = _view_box(root)
    writer = _Writer("ts" + hashlib.sha256(markup.encode("utf-8")).hexdigest()[:8] + "-")
    writer.count = 1
    attrs = writer.attributes(root, ROOT_DROPPED | {"viewBox"})
    head = (
        f'<svg xmlns="{SVG_NS}" viewBox="{escape(box)}"{attrs} role="img" '
        f'aria-label="{escape(label, quote=True)}"><title>{escape(label, quote=False)}</title>'
    )
    writer.text(root.text)
    for child in root:
        if isinstance(child.tag, str) and _local(child.tag)[1] == "title":
            writer.text(child.tail)
            continue  # the label replaces the picture's own title
        writer.element(child, 1)
    return head + "".join(writer.parts) + "</svg>"


def check_png(data: bytes) -> tuple[int, int]:
    """The width and height of the PNG ``data``; PictureError when it is not a PNG, is
    larger than :data:`MAX_PNG_BYTES` or has a side over :data:`MAX_PNG_SIDE` pixels."""
    if len(data) > MAX_PNG_BYTES:
        raise PictureError(
            f"the PNG has {len(data):,} bytes; at most {MAX_PNG_BYTES:,} (256 KB) are allowed"
        )
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR" or len(data) < 33:
        raise PictureError("the file is not a PNG image (its first bytes are not a PNG header)")
    width, height = struct.unpack(">II", data[16:24])
    if not (0 < width <= MAX_PNG_SIDE and 0 < height <= MAX_PNG_SIDE):
        raise PictureError(
            f"the PNG is {width}x{height} pixels; each side must be 1 to {MAX_PNG_SIDE}"
        )
    return width, height


def png_svg(data: bytes, label: str) -> str:
    """A checked PNG inside an SVG picture labelled ``label`` (the PNG as a data: URI)."""
    width, height = check_png(data)
    uri = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label, quote=True)}"><title>{escape(label, quote=False)}</title>'
        f'<image href="{uri}" width="{width}" height="{height}"/></svg>'
    )
