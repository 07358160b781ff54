; Calls: `f(...)`, `module.f(...)`, `self.f(...)`.
; Captures: @call (the call; the reader takes the name called, its last
; part, from the call's own fields: a pattern that spells that shape out
; costs the query compiler a millisecond).
(call) @call
