// The Slurm scripts of a sharded sweep: an array of N tasks, each running its shard of the spec
// by absolute paths with its own results file, the cluster options asked for and no others, and
// a merge of exactly the N shard files; paths with spaces and quotes stay one word.
#include "core/sweep/slurm_scripts.h"

#include <QtTest>

using namespace spillway;

namespace {

SlurmSweepJob job() {
    SlurmSweepJob j;
    j.cli = "/opt/spillway/bin/spillway-cli";
    j.spec = "/home/me/sweeps/gpu.sweep.json";
    j.dir = "/scratch/run 1";
    j.shards = 8;
    return j;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

class TestSlurmScripts : public QObject {
    Q_OBJECT
private slots:
    void shardsScriptRunsOneShardPerArrayTask() {
        SlurmSweepJob j = job();
        j.partition = "cpu";
        j.time = "02:00:00";
        j.cpusPerTask = 16;
        const std::string s = slurmShardsScript(j);
        QVERIFY(s.starts_with("#!/bin/bash\n"));
        QVERIFY(has(s, "#SBATCH --array=0-7\n"));
        QVERIFY(has(s, "#SBATCH --partition=cpu\n"));
        QVERIFY(has(s, "#SBATCH --time=02:00:00\n"));
        QVERIFY(has(s, "#SBATCH --cpus-per-task=16\n"));
        QVERIFY(has(s, "exec '/opt/spillway/bin/spillway-cli' sweep '/home/me/sweeps/gpu.sweep.json' --shard "
                       "\"$SLURM_ARRAY_TASK_ID/8\" --threads \"${SLURM_CPUS_PER_TASK:-1}\" --out "
                       "'/scratch/run 1/shard-'\"$SLURM_ARRAY_TASK_ID\"'-of-8.jsonl'\n"));
        const std::string plain = slurmShardsScript(job());
        QVERIFY(!has(plain, "--partition") && !has(plain, "--time") && !has(plain, "--cpus-per-task"));
    }

    void mergeScriptJoinsTheNShards() {
        SlurmSweepJob j = job();
        j.cpusPerTask = 16;
        const std::string s = slurmMergeScript(j);
        QVERIFY(!has(s, "--array") && !has(s, "--cpus-per-task"));  // one task, one CPU
        QVERIFY(has(s, "for ((k = 0; k < 8; k++)); do shards+=('/scratch/run 1/shard-'\"$k\"'-of-8.jsonl'); done\n"));
        QVERIFY(has(s, "sweep merge \"${shards[@]}\" --csv '/scratch/run 1/merged.csv' --sqlite "
                       "'/scratch/run 1/merged.sqlite'\n"));
    }

    void shellQuoteKeepsOneWord() {
        QCOMPARE(shellQuote("a b"), std::string("'a b'"));
        QCOMPARE(shellQuote("it's"), std::string("'it'\\''s'"));
        QCOMPARE(shellQuote("$HOME"), std::string("'$HOME'"));
    }
};

QTEST_GUILESS_MAIN(TestSlurmScripts)
#include "tst_slurm_scripts.moc"
