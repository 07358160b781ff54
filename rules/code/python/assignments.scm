; Names bound to a value: `QUEUE_URL = os.environ["QUEUE_URL"]`,
; `payload = {...}`, `queue_url: str = ...`.
; Captures: @assignment (the binding), @name (the name), @value (its value).
(assignment left: (identifier) @name right: (_) @value) @assignment
; What is added to a mapping or list a name is bound to, which the name's
; value then holds too: `body.update({...})`, `body.setdefault("k", v)`,
; `items.append(v)`, `body["k"] = v`. Captures @adds besides.
((call
   function: (attribute object: (identifier) @name attribute: (identifier) @method)
   arguments: (argument_list (_) @value)) @assignment @adds
  (#any-of? @method "update" "setdefault" "append" "extend" "insert"))
(assignment left: (subscript value: (identifier) @name) right: (_) @value) @assignment @adds
