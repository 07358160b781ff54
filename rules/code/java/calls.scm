; Calls: `f(...)`, `obj.f(...)`, and method references (`this::process`).
; Captures: @call (the call), @callee (the name called).
(method_invocation name: (identifier) @callee) @call
(method_reference (identifier) @callee .) @call
