package com.example;

// A worker whose requests SQS accepts.

import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;

public class Worker {
    private static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    private static final String ORDERS = "https://sqs.us-east-1.amazonaws.com/123456789012/orders.fifo";
    private static final int BATCH = 10;
    private final SqsClient sqs = SqsClient.create();

    public void poll() {
        while (true) {
            ReceiveMessageRequest request = ReceiveMessageRequest.builder()
                .queueUrl(JOBS)
                .waitTimeSeconds(20)
                .maxNumberOfMessages(BATCH)
                .build();
            for (Message message : sqs.receiveMessage(request).messages()) {
                sqs.deleteMessage(DeleteMessageRequest.builder().queueUrl(JOBS).receiptHandle(message.receiptHandle()).build());
            }
        }
    }

    public void send(String id, String body) {
        sqs.sendMessage(SendMessageRequest.builder()
            .queueUrl(ORDERS)
            .messageBody(body)
            .messageGroupId(id)
            .messageDeduplicationId(id)
            .build());
    }

    public SendMessageBatchResponse sendAll() {
        return sqs.sendMessageBatch(SendMessageBatchRequest.builder()
            .queueUrl(JOBS)
            .entries(
                SendMessageBatchRequestEntry.builder().id("1").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("2").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("3").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("4").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("5").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("6").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("7").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("8").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("9").messageBody("job").build(),
                SendMessageBatchRequestEntry.builder().id("10").messageBody("job").build())
            .build());
    }
}
