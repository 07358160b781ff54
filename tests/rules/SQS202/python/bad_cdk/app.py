from aws_cdk import App, Duration, Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from aws_cdk.aws_lambda_event_sources import SqsEventSource


class OrdersStack(Stack):
    def __init__(self, scope, id):
        super().__init__(scope, id)
        dlq = sqs.Queue(self, "OrdersDLQ")
        queue = sqs.Queue(
            self,
            "OrdersQueue",
            visibility_timeout=Duration.seconds(180),
            dead_letter_queue=sqs.DeadLetterQueue(queue=dlq, max_receive_count=5),
        )
        function = lambda_.Function(
            self,
            "OrdersFunction",
            runtime=lambda_.Runtime.PYTHON_3_12,
            handler="app.handler",
            code=lambda_.Code.from_asset("lambda"),
            timeout=Duration.seconds(30),
        )
        function.add_event_source(SqsEventSource(queue, batch_size=10, report_batch_item_failures=True))


app = App()
OrdersStack(app, "OrdersStack")
app.synth()
