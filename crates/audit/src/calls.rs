//! Counting and recording every AWS operation the audit sends, through an
//! SDK interceptor: the call budget is printed, and the tests prove the
//! audit only reads (List*, Get*, Describe*).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use aws_sdk_sqs::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_sqs::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::orchestrator::Metadata;

/// Every operation sent (retries included), shared by the clients.
#[derive(Debug, Default)]
pub struct CallLog {
    count: AtomicUsize,
    operations: Mutex<Vec<String>>,
}

impl CallLog {
    pub(crate) fn count(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// `Service.Operation` of every call, in order.
    pub fn operations(&self) -> Vec<String> {
        self.operations.lock().map(|o| o.clone()).unwrap_or_default()
    }
}

/// Counts into the run's log and, when accounts are named, the log of the
/// account whose credentials send the call.
#[derive(Debug, Clone)]
pub(crate) struct Counter(pub Arc<CallLog>, pub Option<Arc<CallLog>>);

impl Intercept for Counter {
    fn name(&self) -> &'static str {
        "sqsguard-call-counter"
    }

    fn read_before_transmit(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        for log in std::iter::once(&self.0).chain(&self.1) {
            log.count.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(meta) = cfg.load::<Metadata>()
            && let Ok(mut ops) = self.0.operations.lock()
        {
            ops.push(format!("{}.{}", meta.service(), meta.name()));
        }
        Ok(())
    }
}
