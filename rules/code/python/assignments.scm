; Names bound to a value: `QUEUE_URL = os.environ["QUEUE_URL"]`,
; `payload = {...}`, `queue_url: str = ...`.
; Captures: @assignment (the binding); the name and its value are read
; from its own fields (`fields::bindings`: a name assigned a value).
(assignment) @assignment
