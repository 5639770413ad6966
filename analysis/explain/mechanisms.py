"""The candidate mechanisms `explain` can name: each is one number of the machine file or of the simulated
machine, with the way to set it, its value in the machine as given, and where it enters the model."""
import copy
import dataclasses
import typing


@dataclasses.dataclass(frozen=True)
class Mechanism:
    name: str
    meaning: str
    unit: str
    # "cost": cycles, GUPS falls as it grows (from 0 up); "factor": a multiple of a capacity, GUPS grows with it;
    # "sim": only the simulation has it (no term of the model).
    kind: str
    # Its value in a machine file (a dict).
    nominal_of: typing.Callable
    # Sets it in a machine file; None: it is a gups-sim option instead (sim_option).
    setter: typing.Optional[typing.Callable] = None
    sim_option: typing.Optional[str] = None
    # Algorithms whose model has a term for it (the simulation has every mechanism).
    in_model: tuple = ()
    # The simulation's direction: +1 if GUPS grows with the value, -1 if it falls.
    direction: int = -1
    integer: bool = False
    # The network levels whose simulation has it (empty: every level; ROUTES_ITSELF: the levels that route
    # messages themselves, as gups-topology --network-levels says).
    levels: typing.Union[tuple, str] = ()
    # A choice among partitions (explain/partition.py), not a value: searched by trying each.
    categorical: bool = False
    # The machine-file fields (or gups-sim option) it moves, given the machine: what a user edits to try it.
    fields_of: typing.Optional[typing.Callable] = None

    def fields(self, machine):
        return self.fields_of(machine) if self.fields_of else []

    def nominal_text(self, machine, nominal):
        """Its value in the machine file, with the fields it moves: 'update' is every figure of an update's cost,
        not costs_cycles.update alone."""
        fields = self.fields(machine)
        value = "the machine's partitions" if self.categorical else f"{nominal:.4g} {self.unit}"
        return value + (f" ({', '.join(fields)})" if fields else "")

    def nominal(self, machine):
        return self.nominal_of(machine)

    def applied(self, machine, value):
        """A copy of the machine file (a dict) with this mechanism at value."""
        variant = copy.deepcopy(machine)
        if self.setter is not None:
            self.setter(variant, value)
            _keep_references(variant)
        variant.setdefault("sources", {})[f"explain.{self.name}"] = f"set to {value:g} by python3 -m analysis explain"
        return variant

    def sim_options(self, value):
        """gups-sim options this mechanism adds beyond the machine file."""
        return [self.sim_option, str(int(round(value)))] if self.sim_option else []


def _keep_references(variant):
    """The variant keeps the references of the machine it varies (the paper's bucket sizes that its runs ask for):
    the loader drops them from a file whose links or clock differ from references_of's, which is right for a
    machine of one's own and wrong for the same machine with one figure moved on purpose."""
    of = variant.get("references_of")
    if not isinstance(of, dict):
        return
    links = _network_section(variant)
    for key in of:
        if key in links:
            of[key] = links[key]
        elif key in variant and key != "name":
            of[key] = variant[key]


def _costs(machine):
    return machine["costs_cycles"]


def _set_top(core):
    def setter(machine, value):
        _costs(machine)["core_overhead"][core] = value
    return setter


def _set_routing_hop(machine, value):
    # The simulation charges the hop's own work apart from its calls (routing_hop_without_calls, by default
    # message_overhead): both move by the same number of cycles.
    costs = _costs(machine)
    without_calls = costs.get("routing_hop_without_calls", costs["message_overhead"])
    costs["routing_hop_without_calls"] = max(0.0, without_calls + value - costs["routing_hop"])
    costs["routing_hop"] = value


def _set_update(machine, value):
    # Every figure of an update's cost moves by the same number of cycles.
    costs = _costs(machine)
    delta = value - costs["update"]
    for key in ("update", "update_streamed", "update_all_cores", "update_streamed_all_cores"):
        if key in costs:
            costs[key] = max(0.0, costs[key] + delta)


def _set_receive_call(machine, value):
    # The cost per packet of a receive call, as the multi-core model charges it (receive_call_batched). The
    # simulation splits a call into its own part and a part per packet (600 for one packet and 330 each for four
    # are 360 + 240 a packet): the call's own part stays while the value allows it, the packet's part takes the
    # change; below the call's own share of a batch nothing is left per packet and the call's part shrinks,
    # so that every value is a call the simulation can charge.
    costs = _costs(machine)
    batch = max(1, costs.get("receive_batch_packets", 4))
    per_packet = (batch * costs["receive_call_batched"] - costs["receive_call"]) / (batch - 1) if batch > 1 \
        else costs["receive_call"]
    own = max(0.0, costs["receive_call"] - per_packet)
    costs["receive_call_batched"] = value
    costs["receive_call"] = min(own, value * batch) + max(0.0, value - own / batch)


def _network_section(machine):
    """The machine's network section as gups-topology writes the file (torus, fat_tree, dragonfly: whichever
    holds the links' figures), so that a link mechanism works on any network."""
    return next(v for key, v in machine.items() if key != "references_of"  # the record of where references come from
                and isinstance(v, dict) and ("link_bandwidth_bytes_per_s" in v or "link_latency_s" in v))


def _set_bandwidth(machine, value):
    section = _network_section(machine)
    section["link_bandwidth_bytes_per_s"] = section["link_bandwidth_bytes_per_s"] * value


def _set_latency(machine, value):
    _network_section(machine)["link_latency_s"] = value


def _packet(name):
    return lambda machine: machine["network_levels"]["packet"][name]


def _set_packet(name):
    return lambda machine, value: machine["network_levels"]["packet"].__setitem__(name, int(round(value)))


# A partition may wrap in some dimensions only at the levels that route messages themselves (not SimGrid's
# links): which those are, the caller asks the build (programs.routing_levels) and passes on.
ROUTES_ITSELF = "routes-itself"


def _cost(name):
    return lambda machine: _costs(machine)[name]


def _set_cost(name):
    return lambda machine, value: _costs(machine).__setitem__(name, value)


def _cost_fields(*names):
    return lambda machine: [f"costs_cycles.{n}" for n in names if n in _costs(machine)]


def _network_field(name):
    def fields(machine):
        key = next(k for k, v in machine.items() if k != "references_of" and isinstance(v, dict) and
                   ("link_bandwidth_bytes_per_s" in v or "link_latency_s" in v))
        return [f"{key}.{name}"]
    return fields


def _hop_fields(machine):
    return ["costs_cycles.routing_hop", "costs_cycles.routing_hop_without_calls"]


MECHANISMS = {m.name: m for m in [
    *(Mechanism(f"top{core}", f"extra cycles per update on core {core} (Eq. 6 top{core})", "cycles", "cost",
                lambda machine, core=core: _costs(machine)["core_overhead"][core], _set_top(core),
                in_model=("multicore",), fields_of=lambda machine, core=core: [f"costs_cycles.core_overhead[{core}]"])
      for core in range(4)),
    Mechanism("routing_hop", "cycles per software routing hop (Eq. 1)", "cycles", "cost", _cost("routing_hop"),
              _set_routing_hop, in_model=("routed",), fields_of=_hop_fields),
    Mechanism("update", "cycles per table update (tu)", "cycles", "cost", _cost("update"), _set_update,
              in_model=("routed", "multicore"),
              fields_of=_cost_fields("update", "update_streamed", "update_all_cores", "update_streamed_all_cores")),
    Mechanism("send_call", "cycles per send call (ts x bucket)", "cycles", "cost", _cost("send_call"),
              _set_cost("send_call"), in_model=("multicore",), fields_of=_cost_fields("send_call")),
    Mechanism("receive_call", "cycles per packet received (tr x bucket / packets)", "cycles", "cost",
              _cost("receive_call_batched"), _set_receive_call, in_model=("multicore",),
              fields_of=_cost_fields("receive_call_batched", "receive_call")),
    Mechanism("link_bandwidth", "link bandwidth efficiency (a multiple of the machine file's)", "x", "factor",
              lambda machine: 1.0, _set_bandwidth, in_model=("routed", "multicore"), direction=+1,
              fields_of=_network_field("link_bandwidth_bytes_per_s")),
    Mechanism("link_latency", "seconds per link crossed", "s", "sim",
              lambda machine: _network_section(machine)["link_latency_s"], _set_latency,
              fields_of=_network_field("link_latency_s")),
    # Unbounded in the machine as given: the deepest FIFO the search tries stands for it.
    Mechanism("reception_fifo", "messages a core's reception FIFO holds (with DMA injection)", "messages", "sim",
              lambda machine: 1024, sim_option="--reception-fifo", direction=+1, integer=True,
              fields_of=lambda machine: ["gups-sim --reception-fifo"]),
    # The network's structure (the packet level's parameters, the partition): simulation only.
    Mechanism("channel_buffer_chunks", "32-byte chunks a router's buffer holds per virtual channel (packet level)",
              "chunks", "sim", _packet("channel_buffer_chunks"), _set_packet("channel_buffer_chunks"),
              fields_of=lambda machine: ["network_levels.packet.channel_buffer_chunks"], direction=+1,
              integer=True, levels=("packet",)),
    Mechanism("injection_fifos", "hardware injection FIFOs a node drains in order (packet level)", "FIFOs", "sim",
              _packet("injection_fifos"), _set_packet("injection_fifos"),
              fields_of=lambda machine: ["network_levels.packet.injection_fifos"], direction=+1, integer=True,
              levels=("packet",)),
    Mechanism("dynamic_channels", "adaptive virtual channels beside the escape channel (the escape's share of a "
              "link's buffers is 1 / (this + 1); packet level)", "channels", "sim", _packet("dynamic_channels"),
              _set_packet("dynamic_channels"), direction=+1, integer=True, levels=("packet",),
              fields_of=lambda machine: ["network_levels.packet.dynamic_channels"]),
    Mechanism("partition", "the partition's shape and which dimensions wrap (explain/partition.py's rules)",
              "partition", "sim", lambda machine: 0, levels=ROUTES_ITSELF, categorical=True,
              fields_of=lambda machine: ["torus.partitions", "torus.mesh_below_nodes"]),
]}


def _lacks_its_core(name, algorithm, machine):
    """A per-core overhead (topK) of a core the algorithm's role plan does not have on this machine."""
    return name.startswith("top") and (algorithm != "multicore" or int(name[3:]) >= machine.get("cores_per_node", 1))


def _lacks_its_level(mechanism, machine, network, routing_levels):
    """Why the simulation at this network level cannot move it on this machine, if it cannot."""
    levels = tuple(routing_levels) if mechanism.levels == ROUTES_ITSELF else mechanism.levels
    if mechanism.levels and network not in levels:
        return f"mechanism '{mechanism.name}' is simulated at the network level {' or '.join(levels)} " \
               f"(--network), not {network}"
    if "packet" in mechanism.levels and not mechanism.categorical and \
            "packet" not in machine.get("network_levels", {}):
        return f"mechanism '{mechanism.name}': machine {machine.get('name')} has no network_levels.packet"
    if mechanism.categorical and "torus" not in machine:
        return f"mechanism '{mechanism.name}': machine {machine.get('name')} is no torus"
    return None


def applicable(algorithm, machine, network="auto", routing_levels=()):
    """The mechanisms that can move GUPS for this algorithm on this machine at this network level (the default
    candidates); routing_levels: the levels that route messages themselves (programs.routing_levels)."""
    names = []
    for mechanism in MECHANISMS.values():
        if _lacks_its_core(mechanism.name, algorithm, machine) or _lacks_its_level(mechanism, machine, network, routing_levels):
            continue
        if mechanism.kind != "sim" and algorithm not in mechanism.in_model:
            continue
        names.append(mechanism.name)
    return names


def chosen(text, algorithm, machine, network="auto", routing_levels=()):
    """The mechanisms named in a comma list ('all': every applicable one). ValueError names an unknown one, or
    one this network level or machine cannot simulate."""
    if text in (None, "", "all"):
        return [MECHANISMS[n] for n in applicable(algorithm, machine, network, routing_levels)]
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in MECHANISMS:
            raise ValueError(f"unknown mechanism '{name}' (known: {', '.join(MECHANISMS)})")
        if _lacks_its_core(name, algorithm, machine):
            raise ValueError(f"mechanism '{name}' is a multi-core overhead: the {algorithm} algorithm on "
                             f"{machine.get('name')} has no core {name[3:]} role")
        if why := _lacks_its_level(MECHANISMS[name], machine, network, routing_levels):
            raise ValueError(why)
    return [MECHANISMS[n] for n in dict.fromkeys(names)]
