# An SQS pipeline in Terraform that gets every detail right: sqsguard finds
# nothing. Try breaking it (visibility_timeout_seconds = 30, say) and run
#   cargo run --release -- lint examples/terraform

variable "function_timeout" {
  description = "Seconds the worker may run for one batch."
  default     = 25
}

locals {
  # Lambda's guidance: 6 x the function timeout + the batching window.
  visibility_timeout = 6 * var.function_timeout + 5
}

resource "aws_sqs_queue" "thumbnails" {
  name                       = "thumbnails"
  visibility_timeout_seconds = local.visibility_timeout
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.thumbnails_dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_sqs_queue" "thumbnails_dlq" {
  name                      = "thumbnails-dlq"
  message_retention_seconds = 1209600
}

resource "aws_cloudwatch_metric_alarm" "thumbnails_dlq" {
  alarm_name          = "thumbnails-dlq-not-empty"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.thumbnails_dlq.name }
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  treat_missing_data  = "notBreaching"
}

resource "aws_lambda_function" "thumbnailer" {
  function_name = "thumbnailer"
  role          = "arn:aws:iam::123456789012:role/thumbnailer"
  handler       = "app.handler"
  runtime       = "python3.12"
  s3_bucket     = "artifacts"
  s3_key        = "thumbnailer.zip"
  timeout       = var.function_timeout
}

resource "aws_lambda_event_source_mapping" "thumbnailer" {
  event_source_arn                   = aws_sqs_queue.thumbnails.arn
  function_name                      = aws_lambda_function.thumbnailer.arn
  batch_size                         = 50
  maximum_batching_window_in_seconds = 5
  function_response_types            = ["ReportBatchItemFailures"]
}
