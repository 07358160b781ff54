package com.example;

// A Spring worker whose receive runs every second, one message at a time.

import org.springframework.scheduling.annotation.Scheduled;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;

public class Worker {
    private static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    private final SqsClient sqs = SqsClient.create();

    @Scheduled(fixedDelay = 1000)
    public void poll() {
        ReceiveMessageRequest request = ReceiveMessageRequest.builder().queueUrl(JOBS).waitTimeSeconds(20).build();
        for (Message message : sqs.receiveMessage(request).messages()) {
            System.out.println(message.body());
            sqs.deleteMessage(DeleteMessageRequest.builder().queueUrl(JOBS).receiptHandle(message.receiptHandle()).build());
        }
    }
}
