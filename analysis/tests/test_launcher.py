"""The launchers: a task's result stamped the same way whoever runs it; resume; the Slurm array's request and the
per-task sizes, with Slurm's commands faked (ctest analysis.slurm runs a real one)."""
import argparse
import json
import os
import sys

import pytest

from analysis.run import launcher, programs, slurm


def writer(path, gups=1.5, status=0):
    """A command that writes a JSON result at path and exits with status."""
    code = f"import json, sys; json.dump({{'gups': {gups}}}, open({path!r}, 'w')); sys.exit({status})"
    return [sys.executable, "-c", code]


def test_execute_stamps_the_result_with_its_provenance(tmp_path):
    path = str(tmp_path / "r.json")
    task = launcher.Task("r", "a run", writer(path), path, "study", {"source": "sim"})
    document, _, failed, _ = launcher.execute(task)
    on_disk = json.loads(open(path, encoding="utf-8").read())
    assert not failed and document == on_disk and on_disk["gups"] == 1.5
    assert on_disk["study"]["command"] == launcher.quoted(task.command) and on_disk["study"]["source"] == "sim"
    assert on_disk["study"]["failed"] is False and on_disk["study"]["node_list"]


def test_a_failed_run_is_recorded_failed_and_not_kept(tmp_path):
    path = str(tmp_path / "r.json")
    task = launcher.Task("r", "a run", writer(path, status=3), path, "sweep")
    [(document, _)] = launcher.Local().run([task], launcher.Progress(1, "test"))
    assert document is None
    assert json.loads(open(path, encoding="utf-8").read())["sweep"]["failed"] is True
    assert launcher.kept(task, launcher.mpirun_prefix, quiet=True) is None


def test_resume_keeps_a_finished_result_and_runs_a_changed_command(tmp_path):
    path, count = str(tmp_path / "r.json"), tmp_path / "count"
    counting = writer(path)
    counting[2] = f"open({str(count)!r}, 'a').write('x'); " + counting[2]
    task = launcher.Task("r", "a run", counting, path, "study")
    local = launcher.Local()
    local.run([task], launcher.Progress(1, "test"))
    local.run([task], launcher.Progress(1, "test"), resume=True)
    assert count.read_text() == "x"
    changed = launcher.Task("r", "a run", counting + ["--other"], path, "study")
    local.run([changed], launcher.Progress(1, "test"), resume=True)
    assert count.read_text() == "xx"


def test_mpi_runs_start_with_the_launchers_own_starter():
    task = launcher.Task("m", "measured", ["gups", "--algo", "direct"], "m.json", "sweep", ranks=8, hosts=2)
    assert task.full_command(launcher.mpirun_prefix) == ["mpirun", "-np", "8", "gups", "--algo", "direct"]
    assert task.full_command(launcher.srun_prefix)[:6] == ["srun", "--mpi=pmix", "--ntasks", "8", "--nodes", "2"]
    assert launcher.Task("s", "sim", ["gups-sim"], "s.json", "study").full_command(launcher.srun_prefix) == \
        ["gups-sim"]


class FakeSlurm:
    """Slurm's commands as the launcher calls them: records them, answers like Slurm 22.05."""

    def __init__(self, node_memory_mb=6144, cpus=2, sbatch_error="", squeue=()):
        self.commands, self.node_memory_mb, self.cpus, self.sbatch_error = [], node_memory_mb, cpus, sbatch_error
        self.squeue = list(squeue)  # answers to squeue, in order; then: every task has left the queue

    def __call__(self, command):
        self.commands.append(command)
        if command[0] == "sinfo":
            return 0, f"{self.node_memory_mb} {self.cpus}\n", ""
        if command[0] == "sbatch":
            return (1, "", self.sbatch_error) if self.sbatch_error else (0, "42\n", "")
        if command[0] == "squeue":
            return self.squeue.pop(0) if self.squeue else (0, "", "")
        if command[0] == "sacct":
            return 1, "", "Slurm accounting storage is disabled"
        if command[0] == "scontrol" and command[1] == "show":
            return 0, "JobId=42 JobState=TIMEOUT Reason=TimeLimit ExitCode=0:0", ""
        return 0, "", ""


def slurm_launcher(tmp_path, monkeypatch, fake, **options):
    monkeypatch.setattr(slurm, "run", fake)
    monkeypatch.setattr(slurm.shutil, "which", lambda name: "/usr/bin/" + name)
    return slurm.Slurm(str(tmp_path), slurm.Options(poll_seconds=0.01, **options))


def sim_tasks(tmp_path, sizes):
    """(memory MiB, expected seconds) -> tasks whose result is already on disk, as if Slurm had run them."""
    tasks = []
    for i, (memory, seconds) in enumerate(sizes):
        path = str(tmp_path / f"t{i}.json")
        task = launcher.Task(f"t{i}", f"sim {i}", writer(path, gups=i), path, "study",
                             memory_bytes=int(memory * 2**20 / slurm.MEMORY_MARGIN), seconds=seconds)
        launcher.execute(task, launcher.srun_prefix)
        tasks.append(task)
    return tasks


def test_one_array_asks_for_the_largest_task_then_sizes_each(tmp_path, monkeypatch):
    fake = FakeSlurm()
    runner = slurm_launcher(tmp_path, monkeypatch, fake, partition="batch", account="lab", qos="long",
                            sbatch_arguments="--exclusive --constraint=x")
    tasks = sim_tasks(tmp_path, [(1000, 60), (4000, 3000), (300, 600)])
    done = runner.run(tasks, launcher.Progress(3, "test", quiet=True))
    assert [d["gups"] for d, _ in done] == [0, 1, 2]
    [sbatch] = [c for c in fake.commands if c[0] == "sbatch"]
    assert "--hold" in sbatch and "--array=0-2" in sbatch and "--mem=4000M" in sbatch
    assert "--time=150" in sbatch  # 3 x 3,000 s
    assert {"--partition=batch", "--account=lab", "--qos=long", "--exclusive", "--constraint=x", "--ntasks=1",
            "--cpus-per-task=1"} <= set(sbatch)
    updates = [c for c in fake.commands if c[:2] == ["scontrol", "update"]]
    assert updates == [["scontrol", "update", "JobId=42_0", "MinMemoryNode=1000", "TimeLimit=5"],
                       ["scontrol", "update", "JobId=42_2", "MinMemoryNode=300", "TimeLimit=30"]]
    assert fake.commands.index(updates[-1]) < fake.commands.index(["scontrol", "release", "42"])


def test_runs_of_other_shapes_go_in_arrays_of_their_own():
    tasks = [launcher.Task(str(i), "", [], "", "sweep", ranks=r, hosts=h)
             for i, (r, h) in enumerate([(0, 1), (2, 1), (0, 1), (4, 2), (2, 1)])]
    assert [[t.name for t in group] for group in slurm.by_shape(tasks)] == [["0", "2"], ["1", "4"], ["3"]]


def test_a_task_larger_than_any_node_is_refused_before_submitting(tmp_path, monkeypatch):
    fake = FakeSlurm(node_memory_mb=2048)
    runner = slurm_launcher(tmp_path, monkeypatch, fake)
    with pytest.raises(slurm.SlurmError, match="sim 1 needs 3,000 MiB .* offers 2,048 MiB"):
        runner.run(sim_tasks(tmp_path, [(1000, 60), (3000, 60)]), launcher.Progress(2, "test", quiet=True))
    assert not [c for c in fake.commands if c[0] == "sbatch"]


def test_sbatch_refusal_is_one_error_line(tmp_path, monkeypatch):
    fake = FakeSlurm(sbatch_error="sbatch: error: invalid partition specified: x\n"
                                  "sbatch: error: Batch job submission failed: Invalid partition name specified")
    runner = slurm_launcher(tmp_path, monkeypatch, fake)
    with pytest.raises(slurm.SlurmError) as error:
        runner.run(sim_tasks(tmp_path, [(100, 60)]), launcher.Progress(1, "test", quiet=True))
    assert str(error.value) == ("sbatch refused the array: invalid partition specified: x; Batch job submission "
                                "failed: Invalid partition name specified")


def test_a_task_without_a_result_is_named_with_its_state_and_log(tmp_path, monkeypatch, capsys):
    fake = FakeSlurm()
    runner = slurm_launcher(tmp_path, monkeypatch, fake)
    tasks = sim_tasks(tmp_path, [(100, 60), (100, 60)])
    os.remove(tasks[1].path)  # as if the task had been killed before it wrote anything
    done = runner.run(tasks, launcher.Progress(2, "test", quiet=True))
    assert done[0][0]["gups"] == 0 and done[1] == (None, 0.0)
    log = os.path.join(str(tmp_path), "slurm", "logs", "42_1.out")
    assert (f"sim 1 failed: task 42_1 ended TIMEOUT, exit 0:0 without a finished result; its log: {log}; "
            "--resume submits it again alone") in capsys.readouterr().err


def test_without_sbatch_the_launcher_says_so(monkeypatch):
    monkeypatch.setattr(slurm.shutil, "which", lambda name: None)
    args = argparse.Namespace(launcher="slurm", time_factor=3.0, poll_seconds=1.0, partition="", account="", qos="",
                              sbatch_arguments="")
    with pytest.raises(slurm.SlurmError, match="sbatch is missing"):
        slurm.from_args(args, "out")
    assert slurm.from_args(argparse.Namespace(launcher="local"), "out").name == "local"


def test_time_limits_and_memory_have_floors_and_margins():
    assert slurm.minutes(0, 3) == 0  # unknown: the partition's default
    assert slurm.minutes(10, 3) == slurm.MIN_MINUTES and slurm.minutes(3600, 3) == 180
    assert slurm.memory_mib(launcher.Task("", "", [], "", "", memory_bytes=0)) == slurm.MEMORY_FLOOR_MIB
    assert slurm.memory_mib(launcher.Task("", "", [], "", "", memory_bytes=2**30)) == 1280
    # The measured rate: 40 s for 1,024 nodes at 8,192 updates, 4,040 s for 32,768 nodes (Table 4 here).
    plan = {"nodes": 32768, "table": {"updates_per_node": 8192}}
    assert 0.8 < slurm.expected_simulation_seconds(plan) / 4040 < 1.25


def test_a_silent_controller_is_waited_for_and_a_purged_job_has_ended(tmp_path, monkeypatch):
    """squeue failing (the controller restarting) is not the tasks' end; 'Invalid job id' (purged) is."""
    fake = FakeSlurm(squeue=[(1, "", "slurm_load_jobs error: Unable to contact slurm controller"),
                             (0, "42_0 RUNNING\n42_1 PENDING\n", ""),
                             (1, "", "slurm_load_jobs error: Invalid job id specified")])
    runner = slurm_launcher(tmp_path, monkeypatch, fake)
    done = runner.run(sim_tasks(tmp_path, [(100, 60), (100, 60)]), launcher.Progress(2, "test", quiet=True))
    assert [d["gups"] for d, _ in done] == [0, 1]
    assert len([c for c in fake.commands if c[0] == "squeue"]) == 3


def test_a_controller_silent_too_long_ends_the_wait(tmp_path, monkeypatch):
    fake = FakeSlurm(squeue=[(1, "", "Unable to contact slurm controller")] * 3)
    monkeypatch.setattr(slurm, "UNANSWERED_SECONDS", 0)
    runner = slurm_launcher(tmp_path, monkeypatch, fake)
    with pytest.raises(slurm.SlurmError, match="squeue has not answered"):
        runner.run(sim_tasks(tmp_path, [(100, 60)]), launcher.Progress(1, "test", quiet=True))


def test_measured_runs_the_partition_cannot_hold_are_not_run(tmp_path, monkeypatch, capsys):
    runner = slurm_launcher(tmp_path, monkeypatch, FakeSlurm(cpus=2))
    progress = launcher.Progress(3, "test")
    fits = [runner.fits(launcher.Task(str(r), f"measured {r}", [], "", "sweep", ranks=r, hosts=1), progress)
            for r in (1, 2, 4)]
    assert fits == [True, True, False]
    assert "measured 4: not run, it needs 4 ranks on 1 node(s) and the partition has 1 node(s) of at most 2 CPUs" \
        in capsys.readouterr().err
