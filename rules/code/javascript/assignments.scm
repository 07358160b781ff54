; Names bound to a value: `const QUEUE_URL = process.env.QUEUE_URL`,
; `let params = {...}`, `params = {...}`, and names taken out of an object
; (`const { QUEUE_URL } = process.env`).
; Captures: @assignment (the binding), @name (the name), @value (its value),
; @destructure (the name is a property of the value).
(variable_declarator name: (identifier) @name value: (_) @value) @assignment
(assignment_expression left: (identifier) @name right: (_) @value) @assignment
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @name)
  value: (_) @value) @assignment @destructure
; What is added to an object or array a name is bound to, which the name's
; value then holds too: `body.sentAt = v`, `body["k"] = v`,
; `Object.assign(body, {...})`, `items.push(v)`. Captures @adds besides.
(assignment_expression left: (member_expression object: (identifier) @name) right: (_) @value) @assignment @adds
(assignment_expression left: (subscript_expression object: (identifier) @name) right: (_) @value) @assignment @adds
((call_expression
   function: (member_expression object: (identifier) @object property: (property_identifier) @method)
   arguments: (arguments . (identifier) @name (_) @value)) @assignment @adds
  (#eq? @object "Object") (#eq? @method "assign"))
((call_expression
   function: (member_expression object: (identifier) @name property: (property_identifier) @method)
   arguments: (arguments (_) @value)) @assignment @adds
  (#any-of? @method "push" "unshift"))
