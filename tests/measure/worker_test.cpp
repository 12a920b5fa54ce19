// The GPU worker process (`tuner __worker`) without a GPU: what it answers before it is set up, and
// to what is no request of the protocol.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/worker_process.h"
#include "measure/worker_protocol.h"

namespace tuner {
namespace {

TEST(Worker, EveryReplyCarriesTheSecondsTheWorkerSpentOnIt) {
  WorkerProcess worker(TUNER_EXECUTABLE, {"__worker"});
  for (const nlohmann::json& request : {ToJson(WarmUpRequest{}), nlohmann::json{{"op", "no_such_request"}}}) {
    const WorkerProcess::Reply reply = worker.Call(request, 30);
    ASSERT_EQ(reply.outcome, WorkerProcess::Outcome::kReplied) << reply.detail;
    const WorkerReply<Done> read = ReadReply<Done>(reply.body);
    EXPECT_FALSE(read.body.has_value()) << request.dump();  // not set up: no GPU work asked for
    EXPECT_GE(read.worker_s, 0) << request.dump();
    EXPECT_LT(read.worker_s, 30) << request.dump();
  }
}

TEST(Worker, WhatIsNoRequestIsRefusedAndTheWorkerGoesOn) {
  WorkerProcess worker(TUNER_EXECUTABLE, {"__worker"});
  const auto error = [&](const nlohmann::json& request) {
    const WorkerProcess::Reply reply = worker.Call(request, 30);
    EXPECT_EQ(reply.outcome, WorkerProcess::Outcome::kReplied) << reply.detail;
    return ReadReply<Done>(reply.body).error;
  };
  EXPECT_EQ(error({{"op", "no_such_request"}}), "unknown request 'no_such_request'");
  EXPECT_NE(error({{"op", "measure"}, {"best_ms", 1}}).find("malformed request"), std::string::npos);
  EXPECT_EQ(error(ToJson(WarmUpRequest{})), "the worker has not been set up");
  EXPECT_TRUE(worker.Alive());
}

}  // namespace
}  // namespace tuner
