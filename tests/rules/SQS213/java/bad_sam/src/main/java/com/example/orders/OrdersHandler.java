package com.example.orders;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.ArrayList;
import java.util.List;

public class OrdersHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage message : event.getRecords()) {
            try {
                process(message.getBody());
            } catch (RuntimeException e) {
                failures.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
                throw e;
            }
        }
        return new SQSBatchResponse(failures);
    }

    private void process(String body) {
        System.out.println(body);
    }
}
