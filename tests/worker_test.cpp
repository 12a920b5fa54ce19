// The GPU worker process (`tuner __worker`) without a GPU: what it answers before it is set up.
#include <gtest/gtest.h>

#include "common/worker_process.h"
#include "measure/worker_protocol.h"

namespace tuner {
namespace {

TEST(Worker, EveryReplyCarriesTheSecondsTheWorkerSpentOnIt) {
  WorkerProcess worker(TUNER_EXECUTABLE, {"__worker"});
  for (const char* op : {"warm_up", "no_such_request"}) {
    const WorkerProcess::Reply reply = worker.Call({{"op", op}}, 30);
    ASSERT_EQ(reply.outcome, WorkerProcess::Outcome::kReplied) << reply.detail;
    EXPECT_FALSE(reply.body.at("ok").get<bool>()) << op;  // not set up: no GPU work asked for
    ASSERT_TRUE(reply.body.contains(kWorkerSecondsKey)) << reply.body.dump();
    const double seconds = reply.body[kWorkerSecondsKey];
    EXPECT_GE(seconds, 0) << op;
    EXPECT_LT(seconds, 30) << op;
  }
}

}  // namespace
}  // namespace tuner
