//! Standard output for the console, written where the console runs.
//!
//! tokio's `Stdout` hands every write and flush to a blocking thread and
//! waits for it: two thread wake-ups per answer, on the console's one task,
//! which every command's answer passes through. A write of a few hundred
//! bytes to a terminal, a pipe or a file takes microseconds, so it is made in
//! place; the console flushes after each answer, as before. The console's
//! task is the process's main thread, outside tokio's workers, so a slow
//! reader of the output holds up only the console itself, as it would anyway.

use std::io::Write;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::AsyncWrite;

/// The process's standard output, written synchronously.
pub struct Stdout(std::io::Stdout);

impl Stdout {
    pub fn new() -> Stdout {
        Stdout(std::io::stdout())
    }
}

impl Default for Stdout {
    fn default() -> Stdout {
        Stdout::new()
    }
}

impl AsyncWrite for Stdout {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(self.get_mut().0.write(buf))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(self.get_mut().0.flush())
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.poll_flush(cx)
    }
}
