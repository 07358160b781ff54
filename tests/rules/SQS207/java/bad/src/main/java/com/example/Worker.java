package com.example;

// A worker that processes each message and never deletes it.

import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;

public class Worker {
    private static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    private final SqsClient sqs = SqsClient.create();

    public void poll() {
        while (true) {
            ReceiveMessageRequest request = ReceiveMessageRequest.builder()
                .queueUrl(JOBS)
                .waitTimeSeconds(20)
                .maxNumberOfMessages(10)
                .build();
            List<Message> messages = sqs.receiveMessage(request).messages();
            for (Message message : messages) {
                Jobs.process(message.body());
            }
        }
    }
}
