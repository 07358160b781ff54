; Calls of the SQS API with the AWS SDK for JavaScript: v3 commands
; (`new ReceiveMessageCommand({...})`, sent with `client.send(...)`), and
; v2 (or v3 aggregated client) methods (`sqs.receiveMessage({...}).promise()`).
; Captures: @call (the command or the call), @operation (the command or
; method name), @receiver (what a method is called on).
((new_expression constructor: (identifier) @operation) @call
  (#any-of? @operation
    "ReceiveMessageCommand" "SendMessageCommand" "SendMessageBatchCommand"
    "DeleteMessageBatchCommand" "ChangeMessageVisibilityBatchCommand"))
((new_expression constructor: (member_expression property: (property_identifier) @operation)) @call
  (#any-of? @operation
    "ReceiveMessageCommand" "SendMessageCommand" "SendMessageBatchCommand"
    "DeleteMessageBatchCommand" "ChangeMessageVisibilityBatchCommand"))
((call_expression
   function: (member_expression object: (_) @receiver property: (property_identifier) @operation)) @call
  (#any-of? @operation
    "receiveMessage" "sendMessage" "sendMessageBatch" "deleteMessageBatch" "changeMessageVisibilityBatch"))
