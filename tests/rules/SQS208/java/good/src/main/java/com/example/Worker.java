package com.example;

// A worker whose deletes pass the receipt handle (SDK v2, and v1's shortcut).

import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.AmazonSQSClientBuilder;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;

public class Worker {
    private static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    private final SqsClient sqs = SqsClient.create();
    private final AmazonSQS sqsV1 = AmazonSQSClientBuilder.defaultClient();

    public void poll() {
        while (true) {
            ReceiveMessageRequest request = ReceiveMessageRequest.builder()
                .queueUrl(JOBS)
                .waitTimeSeconds(20)
                .maxNumberOfMessages(10)
                .build();
            for (Message message : sqs.receiveMessage(request).messages()) {
                System.out.println(message.body());
                sqs.deleteMessage(DeleteMessageRequest.builder().queueUrl(JOBS).receiptHandle(message.receiptHandle()).build());
            }
        }
    }

    public void forget(com.amazonaws.services.sqs.model.Message message) {
        sqsV1.deleteMessage(JOBS, message.getReceiptHandle());
    }
}
