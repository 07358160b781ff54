; Calls: `f(...)`, `module.f(...)`, `self.f(...)`.
; Captures: @call (the call), @callee (the name called, last part).
(call function: (identifier) @callee) @call
(call function: (attribute attribute: (identifier) @callee)) @call
