// How many CPUs this process may run on: its affinity mask, which a batch system (a Slurm task with
// --cpus-per-task, taskset, a cgroup's cpuset) narrows, where std::thread::hardware_concurrency
// counts every CPU of the machine. The default number of compile threads, each driving an NVRTC
// process, so a task of 8 CPUs on a node of 128 starts 8 compilers, not 128.
#pragma once

namespace tuner {

// At least 1.
int UsableCpus();

}  // namespace tuner
