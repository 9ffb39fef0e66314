"""Each binding's error classes from spec/errors.json: Python (`ketama/_errors.py` and the
Rust side's typed mapping), Go (`errors_gen.go`), Java (one `<Name>Exception.java` each),
JavaScript (`lib/errors.js`, `lib/errors.d.ts`), PHP (`src/Exception/`) and Ruby
(`lib/ketama/error_classes.rb`)."""

from __future__ import annotations

import textwrap

from common import header, quoted, single_quoted

SOURCE = "spec/errors.json"

# How each `kind` reads in Python: the built-in a user expects to catch.
PY_BASE = {"input": "ValueError", "not_found": "KeyError", "no_answer": "LookupError"}


def files(errs: list[dict]) -> dict[str, str]:
    core = [e for e in errs if e["core"]]
    out = {
        "python/ketama/_errors.py": python(core),
        "python/src/error_classes.rs": python_rust(core),
        "go/errors_gen.go": go(core),
        "js/lib/errors.js": js(core),
        "js/lib/errors.d.ts": js_types(core),
        "ffi-c/php/src/Exception/ByStatus.php": php_table(errs),
        "ruby/lib/ketama/error_classes.rb": ruby(errs),
    }
    for e in core:
        out[f"java/core/src/main/java/org/ketama/{e['name']}Exception.java"] = java(e)
    for e in errs:
        out[f"ffi-c/php/src/Exception/{e['name']}Exception.php"] = php(e)
    return out


def sentence(e: dict) -> str:
    """The message as a doc sentence naming the core variant."""
    return f"{e['message'][:1].upper()}{e['message'][1:]} (core's ``{e['name']}``)."


def python(core: list[dict]) -> str:
    names = ["KetamaError"] + [f"{e['name']}Error" for e in core]
    lines = [
        header("#", SOURCE).rstrip(),
        '"""The exceptions ``ketama`` raises.',
        "",
        "Every one is a :class:`KetamaError` named after core's error (``BadLabel`` is",
        ":class:`BadLabelError`), and also the built-in exception a Python user expects: refused",
        "input is a :class:`ValueError`, a missing server a :class:`KeyError`, a question without",
        "an answer (an empty ring) a :class:`LookupError`. When one server of the input is to",
        "blame, ``server_label`` names it and ``server_index`` is its place in the list given",
        "(None when the call took a single server).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Optional",
        "",
        "__all__ = [",
        *[f'    "{n}",' for n in names],
        "]",
        "",
        "",
        "class KetamaError(Exception):",
        '    """Base class of every error raised by ``ketama``."""',
        "",
        '    __module__ = "ketama"',
        "    #: core's name of the error (``\"BadLabel\"``), None on this base class",
        "    variant: Optional[str] = None",
        "    #: the place of the server to blame in the list given, when a list was given",
        "    server_index: Optional[int] = None",
        "    #: the label of the server to blame, when one server is to blame",
        "    server_label: Optional[str] = None",
    ]
    for e in core:
        lines += [
            "",
            "",
            f"class {e['name']}Error(KetamaError, {PY_BASE[e['kind']]}):",
            f'    """{sentence(e)}"""',
            "",
            '    __module__ = "ketama"',
            f'    variant = "{e["name"]}"',
        ]
        if e["kind"] == "not_found":
            lines += [
                "",
                "    def __str__(self) -> str:  # KeyError would quote the message",
                '        return str(self.args[0]) if self.args else ""',
            ]
    return "\n".join(lines) + "\n"


def python_rust(core: list[dict]) -> str:
    lines = [
        header("//!", SOURCE).rstrip(),
        "//! The Python class of each core error (defined in `ketama/_errors.py`, imported by name at",
        "//! compile time): one typed mapping, no look-up by string.",
        "",
        "use ketama_core::Error;",
        "use pyo3::prelude::*;",
        "",
        "pyo3::import_exception!(ketama._errors, KetamaError);",
        *[f"pyo3::import_exception!(ketama._errors, {e['name']}Error);" for e in core],
        "",
        "/// The exception of core error `e` with this message; `None` for an error this binding has",
        "/// no class for (the generator makes one for each, the tests forbid the fallback).",
        "pub(crate) fn specific(e: Error, message: String) -> Option<PyErr> {",
        "    Some(match e {",
        *[f"        Error::{e['name']} => {e['name']}Error::new_err(message)," for e in core],
        "        _ => return None,",
        "    })",
        "}",
    ]
    return "\n".join(lines) + "\n"


def go(core: list[dict]) -> str:
    width = max(len(e["name"]) for e in core) + 3
    lines = [
        header("//", SOURCE).rstrip(),
        "",
        "package ketama",
        "",
        "// The core's error vocabulary (spec/errors.json, the errors marked \"core\").",
        "var (",
    ]
    for e in core:
        lines.append(f"\t{('Err' + e['name']).ljust(width)} = &Error{{{quoted(e['name'])}, {quoted(e['message'])}}}")
    lines += [
        ")",
        "",
        "// allErrors lists the vocabulary in spec/errors.json's order.",
        "var allErrors = []*Error{",
        *[f"\tErr{e['name']}," for e in core],
        "}",
    ]
    return "\n".join(lines) + "\n"


def java(e: dict) -> str:
    n = e["name"]
    return f"""{header("//", SOURCE).rstrip()}
package org.ketama;

/** {sentence(e).replace("``", "{@code ", 1).replace("``", "}", 1)} */
public class {n}Exception extends KetamaException {{
    private static final long serialVersionUID = 1L;

    /** The core's text for this error. */
    public static final String MESSAGE = {quoted(e["message"])};

    /** The exception with the core's text. */
    public {n}Exception() {{
        this(null);
    }}

    /** The exception with the core's text, then {{@code ": " + detail}} when detail is not null. */
    public {n}Exception(String detail) {{
        super({quoted(n)}, detail == null ? MESSAGE : MESSAGE + ": " + detail);
    }}
}}
"""


def js(core: list[dict]) -> str:
    lines = [
        "'use strict';",
        header("//", SOURCE).rstrip(),
        "// The error vocabulary of the core: one Error subclass per error, named `<Name>Error`, with",
        "// the core's texts. An error that blames one server input says which: `serverLabel`, and",
        "// `serverIndex` (its place in the list given) when a list was given.",
        "",
        "/** The base class of every error this package throws on bad input. */",
        "class KetamaError extends Error {",
        "  /** @param {string} message */",
        "  constructor(message) {",
        "    super(message);",
        "    this.name = new.target.name;",
        "    /** The core's name for this error (`EmptyRing`, ...); null on this base class. */",
        "    this.variant = null;",
        "    /** The place of the server to blame in the list given, or null. */",
        "    this.serverIndex = null;",
        "    /** The label of the server to blame, or null. */",
        "    this.serverLabel = null;",
        "  }",
        "",
        "  /**",
        "   * Names the server input to blame; returns this error.",
        "   * @param {number | null} index",
        "   * @param {string | null} label",
        "   */",
        "  blame(index, label) {",
        "    this.serverIndex = index;",
        "    this.serverLabel = label;",
        "    return this;",
        "  }",
        "}",
        "",
        "/** The core's text, then `: detail` when one is given. */",
        "function text(message, detail) {",
        "  return detail === undefined || detail === null || detail === '' ? message : `${message}: ${detail}`;",
        "}",
    ]
    for e in core:
        lines += [
            "",
            f"/** {e['message'][:1].upper()}{e['message'][1:]} (core's `{e['name']}`). */",
            f"class {e['name']}Error extends KetamaError {{",
            "  /** @param {string} [detail] */",
            "  constructor(detail) {",
            f"    super(text({single_quoted(e['message'])}, detail));",
            f"    this.variant = '{e['name']}';",
            "  }",
            "}",
        ]
    lines += [
        "",
        "module.exports = {",
        "  KetamaError,",
        *[f"  {e['name']}Error," for e in core],
        "};",
    ]
    return "\n".join(lines) + "\n"


def js_types(core: list[dict]) -> str:
    lines = [
        header("//", SOURCE).rstrip(),
        "",
        "/** The base class of every error this package throws on bad input. */",
        "export class KetamaError extends Error {",
        "  constructor(message: string);",
        "  /** The core's name for this error (`EmptyRing`, ...); null on this base class. */",
        "  readonly variant: string | null;",
        "  /** The place of the server to blame in the list given, or null. */",
        "  readonly serverIndex: number | null;",
        "  /** The label of the server to blame, or null. */",
        "  readonly serverLabel: string | null;",
        "}",
    ]
    for e in core:
        lines += [
            f"/** {e['message'][:1].upper()}{e['message'][1:]} (core's `{e['name']}`). */",
            f"export class {e['name']}Error extends KetamaError {{",
            "  constructor(detail?: string);",
            f"  readonly variant: '{e['name']}';",
            "}",
        ]
    return "\n".join(lines) + "\n"


def php(e: dict) -> str:
    where = "core's" if e["core"] else "the C library's"
    return f"""<?php
{header("//", SOURCE).rstrip()}

declare(strict_types=1);

namespace Ketama\\Exception;

use Ketama\\KetamaException;

/**
 * {e['message'][:1].upper()}{e['message'][1:]} ({where} `{e['name']}`: status
 * `{e['c_name']}`, the exception's code).
 */
class {e['name']}Exception extends KetamaException
{{
}}
"""


def php_table(errs: list[dict]) -> str:
    lines = [
        "<?php",
        header("//", SOURCE).rstrip(),
        "",
        "declare(strict_types=1);",
        "",
        "namespace Ketama\\Exception;",
        "",
        "/** The exception class of each failure status (`ketama_status`). */",
        "final class ByStatus",
        "{",
        "    /** Status value => class, every failure status in order. */",
        "    public const CLASSES = [",
        *[f"        {e['status']} => {e['name']}Exception::class," for e in errs],
        "    ];",
        "}",
    ]
    return "\n".join(lines) + "\n"



def ruby(errs: list[dict]) -> str:
    core = [e for e in errs if e["core"]]
    c_layer = " ".join(e["name"] for e in errs if not e["core"])
    lines = [
        "# frozen_string_literal: true",
        header("#", SOURCE).rstrip(),
        "",
        "module Ketama",
        "  # Every failure status of the C library (`KETAMA_STATUS_*`) by number, named as core names",
        "  # it (`KETAMA_STATUS_EMPTY_RING` = 2 is `:EmptyRing`). 0 is success.",
        "  STATUSES = {",
        *[f"    {e['status']} => :{e['name']}," for e in errs],
        "  }.freeze",
        "",
        "  # The statuses the C layer reports on its own, which are no core errors: they raise",
        "  # Ketama::Error itself.",
        f"  C_LAYER_STATUSES = %i[{c_layer}].freeze",
    ]
    for e in core:
        lines += [
            "",
            *textwrap.wrap(
                f"{e['message'][:1].upper()}{e['message'][1:]} (core's `{e['name']}`, `{e['c_name']}` = {e['status']}).",
                width=98,
                initial_indent="  # ",
                subsequent_indent="  # ",
                break_on_hyphens=False,
            ),
            f"  class {e['name']}Error < Error",
            f"    core_error {single_quoted(e['name'])}, {e['status']}",
            "  end",
        ]
    lines += [
        "",
        "  # One class per core error: name => class, in status order.",
        "  ERRORS = {",
        *[f"    {single_quoted(e['name'])} => {e['name']}Error," for e in core],
        "  }.freeze",
        "end",
    ]
    return "\n".join(lines) + "\n"
