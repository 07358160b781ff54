; Calls of the SQS API with the AWS SDK for JavaScript: v3 commands
; (`new ReceiveMessageCommand({...})`, sent with `client.send(...)`), and
; v2 (or v3 aggregated client) methods (`sqs.receiveMessage({...}).promise()`).
; Captures: @call (the command or the call, matched on the text of its
; class or callee: `#field-match?`); the command or method name and what a
; method is called on are read from the call's own fields
; (`fields::callee_name`, `fields::callee_object`): spelt out here, those
; shapes cost the query compiler 3 ms (TypeScript: 8).
((new_expression) @call
  (#field-match? @call "constructor" "(^|\\.)\\s*(ReceiveMessageCommand|SendMessageCommand|SendMessageBatchCommand|DeleteMessageCommand|DeleteMessageBatchCommand|ChangeMessageVisibilityCommand|ChangeMessageVisibilityBatchCommand)$"))
((call_expression) @call
  (#field-match? @call "function" "\\.\\s*(receiveMessage|sendMessage|sendMessageBatch|deleteMessage|deleteMessageBatch|changeMessageVisibility|changeMessageVisibilityBatch)$"))
