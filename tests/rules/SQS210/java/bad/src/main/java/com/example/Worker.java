package com.example;

// A worker whose heartbeat extends a message's visibility by 30 s every 40 s.

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;

public class Worker {
    private static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    private final SqsClient sqs = SqsClient.create();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    private ScheduledFuture<?> keepHidden(String handle) {
        return scheduler.scheduleAtFixedRate(
            () -> sqs.changeMessageVisibility(r -> r.queueUrl(JOBS).receiptHandle(handle).visibilityTimeout(30)),
            40, 40, TimeUnit.SECONDS);
    }

    public void poll() {
        while (true) {
            ReceiveMessageRequest request = ReceiveMessageRequest.builder()
                .queueUrl(JOBS)
                .waitTimeSeconds(20)
                .maxNumberOfMessages(10)
                .build();
            for (Message message : sqs.receiveMessage(request).messages()) {
                ScheduledFuture<?> beat = keepHidden(message.receiptHandle());
                System.out.println(message.body());
                beat.cancel(false);
                sqs.deleteMessage(DeleteMessageRequest.builder().queueUrl(JOBS).receiptHandle(message.receiptHandle()).build());
            }
        }
    }
}
