; Calls of the SQS API with boto3: a client's methods
; (`sqs.receive_message(QueueUrl=..., WaitTimeSeconds=20)`) and the resource
; API's Queue methods (`queue.receive_messages(...)`, `queue.send_messages(Entries=...)`).
; Captures: @call (the call, matched on its callee's text: `#field-match?`);
; the method name and what it is called on are read from the call's own
; fields (`fields::callee_name`, `fields::callee_object`).
((call) @call
  (#field-match? @call "function" "\\.\\s*(receive_message|send_message|send_message_batch|delete_message|delete_message_batch|change_message_visibility|change_message_visibility_batch|receive_messages|send_messages|delete_messages)$"))
