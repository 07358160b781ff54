"""Writes the Terraform JSON twin of an HCL fixture module (see terraform-json.md).

    python convert_terraform_json.py SQS001/terraform/bad SQS001/terraform-json/bad

Needs python-hcl2 8.1.4 in a venv of its own: checkov's bc-python-hcl2
installs a different module under the same name.
"""
import json
import os
import re
import shutil
import sys
import textwrap

import hcl2

def heredoc(s):
    """python-hcl2 keeps heredocs as written; JSON holds their text."""
    m = re.match(r"^<<(-?)(\w+)\n(.*)\n[ \t]*\2$", s, re.S)
    if not m:
        return s
    body = m.group(3) + "\n"
    return textwrap.dedent(body) if m.group(1) else body

def unquote(s):
    """python-hcl2 keeps string quotes; JSON strings carry none."""
    if isinstance(s, str) and s.startswith('"<<') and s.endswith('"'):
        return heredoc(s[1:-1])
    if isinstance(s, str) and len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        try:
            return json.loads(s)
        except Exception:
            return s[1:-1]
    return s

def clean(v):
    if isinstance(v, dict):
        return {unquote(k): clean(x) for k, x in v.items() if k != "__is_block__" and k != "__comments__"}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return unquote(v)

def blocks(doc):
    """hcl2's lists of one-key dicts -> Terraform JSON objects."""
    out = {}
    for kind, items in doc.items():
        if kind in ("resource", "data"):
            o = out.setdefault(kind, {})
            for item in items:
                for t, names in clean(item).items():
                    for n, body in names.items():
                        o.setdefault(t, {})[n] = body
        elif kind in ("module", "variable", "output", "provider"):
            o = out.setdefault(kind, {})
            for item in items:
                for n, body in clean(item).items():
                    if kind == "provider" and n in o:
                        o[n] = [o[n], body] if not isinstance(o[n], list) else o[n] + [body]
                    else:
                        o[n] = body
        elif kind == "locals":
            o = out.setdefault("locals", {})
            for item in items:
                o.update(clean(item))
        elif kind == "terraform":
            out["terraform"] = [clean(i) for i in items]
        elif kind.startswith("__"):
            continue
        else:
            raise SystemExit(f"unhandled {kind}")
    return out

def convert(src, dst):
    """Every .tf becomes .tf.json; other files (tfvars) are copied as they are."""
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        p = os.path.join(src, name)
        if os.path.isdir(p):
            if name.startswith("."):
                continue
            convert(p, os.path.join(dst, name))
        elif name.endswith(".tf"):
            with open(p) as f:
                doc = hcl2.load(f)
            with open(os.path.join(dst, name + ".json"), "w") as f:
                json.dump(blocks(doc), f, indent=2)
                f.write("\n")
        else:
            shutil.copy(p, os.path.join(dst, name))

if __name__ == "__main__":
    convert(sys.argv[1], sys.argv[2])
