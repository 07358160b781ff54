; What an item failure is filled from: `new BatchItemFailure(id)`,
; `BatchItemFailure.builder().withItemIdentifier(id)`.
; Captures: @key (the constructor or setter), @value (the identifier given).
(object_creation_expression
  type: (_) @key
  arguments: (argument_list . (_) @value))
((method_invocation
   name: (identifier) @key
   arguments: (argument_list . (_) @value))
  (#any-of? @key "withItemIdentifier" "itemIdentifier" "setItemIdentifier"))
