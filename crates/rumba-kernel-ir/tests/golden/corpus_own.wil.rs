// ---- own2_index
// uses: ["OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            __out_v: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 2usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let v = __out_v.block(__blk);
            if let (::core::option::Option::Some(__win_v),) = (
                __out_v.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            if (true && true) {
                                __win_v
                                    .set(
                                        __tid,
                                        ((((y).wrapping_mul(1000usize)).wrapping_add(x)) as u32),
                                    );
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            if ((y < v.shape()[0]) && (x < v.shape()[1])) {
                                v.set(
                                    (y, x),
                                    ((((y).wrapping_mul(1000usize)).wrapping_add(x)) as u32),
                                );
                            }
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let __out_v = ::rumba::kernel::wil::OwnOut::<
                u32,
                __W,
                2usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_v),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_v),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- own2_past_the_edge
// uses: ["OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            __out_v: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 2usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let v = __out_v.block(__blk);
            if let (::core::option::Option::Some(__win_v),) = (
                __out_v.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            if (true && true) {
                                __win_v
                                    .set(
                                        __tid,
                                        ((((y).wrapping_mul(1000usize)).wrapping_add(x)) as u32),
                                    );
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            if ((y < v.shape()[0]) && (x <= v.shape()[1])) {
                                v.set(
                                    (y, x),
                                    ((((y).wrapping_mul(1000usize)).wrapping_add(x)) as u32),
                                );
                            }
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let __out_v = ::rumba::kernel::wil::OwnOut::<
                u32,
                __W,
                2usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_v),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_v),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- own_accumulate
// uses: ["OwnIndexStore", "Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            __out_y: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 1usize>,
            offsets: &::rumba::kernel::wil::GlobalIn<'_, u32, 1usize, __R>,
            limit: usize,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let y = __out_y.block(__blk);
            let offsets = *offsets;
            let __trues1: u32 = 0;
            if let (::core::option::Option::Some(__win_y),) = (
                __out_y.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < limit) {
                                {
                                    let __rumba_v: u32 = offsets.get((i / 4usize));
                                    __win_y.set(__w, (__win_y.at(__w)).wrapping_add(__rumba_v));
                                }
                                {
                                    let __rumba_v: u32 = 85u32;
                                    __win_y.set(__w, (__win_y.at(__w) ^ __rumba_v));
                                }
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < limit) {
                                {
                                    let __rumba_i = i;
                                    let __rumba_v: u32 = offsets.get((i / 4usize));
                                    y.set(
                                        __rumba_i,
                                        (y.get(__rumba_i)).wrapping_add(__rumba_v),
                                    );
                                }
                                {
                                    let __rumba_i = i;
                                    let __rumba_v: u32 = 85u32;
                                    y.set(__rumba_i, (y.get(__rumba_i) ^ __rumba_v));
                                }
                            }
                        },
                    );
            }
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            if let (::core::option::Option::Some(__win_y),) = (
                __out_y.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < limit) {
                                let old: u32 = __win_y.at(__w);
                                __win_y
                                    .set(
                                        __w,
                                        (<u32>::wrapping_mul(old, 3u32)).wrapping_add(1u32),
                                    );
                                __win_y
                                    .set(__w, <u32>::wrapping_sub(__win_y.at(__w), 7u32));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < limit) {
                                let old: u32 = y.get(i);
                                y.set(
                                    i,
                                    (<u32>::wrapping_mul(old, 3u32)).wrapping_add(1u32),
                                );
                                y.set(i, <u32>::wrapping_sub(y.get(i), 7u32));
                            }
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let __out_y = ::rumba::kernel::wil::OwnOut::<
                u32,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            let offsets = ::rumba::kernel::wil::GlobalIn::<
                u32,
                1usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let limit: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_y, &offsets, limit),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_y, &offsets, limit),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_y, &offsets, limit),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_y, &offsets, limit),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (true, true) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (true, false) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (false, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- own2_update
// uses: ["Read", "OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            u: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            __out_v: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 2usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let u = *u;
            let v = __out_v.block(__blk);
            if let (
                ::core::option::Option::Some(__win_u),
                ::core::option::Option::Some(__win_v),
            ) = (u.halo_window::<1usize, _>(__blk), __out_v.own_window(__blk)) {
                __blk
                    .each_split(
                        __win_u.interior(),
                        #[inline(always)]
                        |__w: u32, __in: ::rumba::kernel::wil::Inside| {
                            let __tid: ::rumba::kernel::Dim3 = __in.tid();
                            let __h_u_m1_p0 = __win_u.at::<{ -1isize }, 0isize>(__in);
                            let __h_u_p0_m1 = __win_u.at::<0isize, { -1isize }>(__in);
                            let __h_u_p0_p0 = __win_u.at::<0isize, 0isize>(__in);
                            let __h_u_p1_p0 = __win_u.at::<1isize, 0isize>(__in);
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let rows: usize = v.shape()[0];
                            let cols: usize = v.shape()[1];
                            if (true && true) {
                                {
                                    let __rumba_v: f32 = 2f32;
                                    __win_v
                                        .set_inside(__in, (__win_v.get_inside(__in) * __rumba_v));
                                }
                                if (((true && true) && ((y).wrapping_add(1usize) < rows))
                                    && ((x).wrapping_add(1usize) < cols))
                                {
                                    {
                                        let __rumba_v: f32 = ((__h_u_m1_p0 + __h_u_p1_p0)
                                            - __h_u_p0_m1);
                                        __win_v
                                            .set_inside(__in, (__win_v.get_inside(__in) + __rumba_v));
                                    }
                                } else {
                                    let old: f32 = __win_v.get_inside(__in);
                                    __win_v.set_inside(__in, (old - __h_u_p0_p0));
                                }
                            }
                        },
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let rows: usize = v.shape()[0];
                            let cols: usize = v.shape()[1];
                            if ((y < rows) && (x < cols)) {
                                {
                                    let __rumba_i = (y, x);
                                    let __rumba_v: f32 = 2f32;
                                    v.set(__rumba_i, (v.get(__rumba_i) * __rumba_v));
                                }
                                if ((((y > 0usize) && (x > 0usize))
                                    && ((y).wrapping_add(1usize) < rows))
                                    && ((x).wrapping_add(1usize) < cols))
                                {
                                    {
                                        let __rumba_i = (y, x);
                                        let __rumba_v: f32 = ((u.get(((y).wrapping_sub(1usize), x))
                                            + u.get(((y).wrapping_add(1usize), x)))
                                            - u.get((y, (x).wrapping_sub(1usize))));
                                        v.set(__rumba_i, (v.get(__rumba_i) + __rumba_v));
                                    }
                                } else {
                                    let old: f32 = v.get((y, x));
                                    v.set((y, x), (old - u.get((y, x))));
                                }
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let rows: usize = v.shape()[0];
                            let cols: usize = v.shape()[1];
                            if ((y < rows) && (x < cols)) {
                                {
                                    let __rumba_i = (y, x);
                                    let __rumba_v: f32 = 2f32;
                                    v.set(__rumba_i, (v.get(__rumba_i) * __rumba_v));
                                }
                                if ((((y > 0usize) && (x > 0usize))
                                    && ((y).wrapping_add(1usize) < rows))
                                    && ((x).wrapping_add(1usize) < cols))
                                {
                                    {
                                        let __rumba_i = (y, x);
                                        let __rumba_v: f32 = ((u.get(((y).wrapping_sub(1usize), x))
                                            + u.get(((y).wrapping_add(1usize), x)))
                                            - u.get((y, (x).wrapping_sub(1usize))));
                                        v.set(__rumba_i, (v.get(__rumba_i) + __rumba_v));
                                    }
                                } else {
                                    let old: f32 = v.get((y, x));
                                    v.set((y, x), (old - u.get((y, x))));
                                }
                            }
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let u = ::rumba::kernel::wil::GlobalIn::<
                f32,
                2usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let __out_v = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
                2usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &u, &__out_v),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &u, &__out_v),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (true, true) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (true, false) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (false, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- neighbour_read
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            y: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let y = *y;
            let __ctx_n = __blk.context::<i32>();
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let mut n: i32 = __ctx_n.get(__w as usize);
                        n = 0i32;
                        if ((i ^ 1usize) < y.len()) {
                            n = y.get((i ^ 1usize));
                        }
                        __ctx_n.set(__w as usize, n);
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let mut n: i32 = __ctx_n.get(__w as usize);
                        if (i < y.len()) {
                            {
                                let __rumba_i = i;
                                let __rumba_v: i32 = (n & 255i32);
                                y.set(
                                    __rumba_i,
                                    (y.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let y = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &y))
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &y))
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &y))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &y))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
