; What returns batch item failures by itself: Powertools for AWS Lambda's
; batch utility (`processPartialResponse`, a `BatchProcessor`), and middy's
; `@middy/sqs-partial-batch-failure` middleware.
; Captures: @utility (the name), or @utility_call (a call or `new`, matched
; on the text of its callee or class, `#field-match?`, whose name called is
; the utility: `fields::callee_name`).
((call_expression) @utility_call
  (#field-match? @utility_call "function" "^(processPartialResponse|processPartialResponseSync)$"))
((new_expression) @utility_call
  (#field-match? @utility_call "constructor" "^(BatchProcessor|BatchProcessorSync|SqsFifoPartialProcessor|SqsFifoPartialProcessorAsync)$"))
; `import ... from "@middy/sqs-partial-batch-failure"` (@utility_import;
; the module's name is the utility: `fields::imported_module`).
((import_statement) @utility_import
  (#field-match? @utility_import "source" "^['\"]@middy/sqs-partial-batch-failure['\"]$"))
; `require("@middy/sqs-partial-batch-failure")`, matched on the call's text
; (@utility_require; the module's name is the utility: `fields::required_module`).
((call_expression) @utility_require
  (#match? @utility_require "^require\\s*\\(\\s*['\"]@middy/sqs-partial-batch-failure['\"]\\s*\\)$"))
