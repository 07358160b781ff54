; What returns batch item failures by itself: Powertools for AWS Lambda's
; batch utility (`processPartialResponse`, a `BatchProcessor`), and middy's
; `@middy/sqs-partial-batch-failure` middleware.
; Captures: @utility.
((call_expression function: (identifier) @utility)
  (#any-of? @utility "processPartialResponse" "processPartialResponseSync"))
((new_expression constructor: (identifier) @utility)
  (#any-of? @utility "BatchProcessor" "BatchProcessorSync" "SqsFifoPartialProcessor" "SqsFifoPartialProcessorAsync"))
((import_statement source: (string (string_fragment) @utility))
  (#eq? @utility "@middy/sqs-partial-batch-failure"))
((call_expression
   function: (identifier) @require
   arguments: (arguments (string (string_fragment) @utility)))
  (#eq? @require "require")
  (#eq? @utility "@middy/sqs-partial-batch-failure"))
