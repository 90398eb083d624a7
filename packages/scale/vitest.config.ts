import { xtrustProject } from '../../vitest.shared.js';

export default xtrustProject('scale');
